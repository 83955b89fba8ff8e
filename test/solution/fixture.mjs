/**
 * The source content of the solution.js suite, made over plain HTTP in the demo organization: a
 * group holding a CSV item (a file, a thumbnail and a resource), a web map whose layer is that CSV
 * and an app showing the map (a thumbnail and a resource too).
 */

/** A REST operation posted as multipart/form-data, as browsers and solution.js send files; the parsed answer, or a throw on the error envelope. */
export async function call(restUrl, path, fields, token) {
  const form = new FormData();
  form.set('f', 'json');
  if (token) form.set('token', token);
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) form.set(name, value[0], value[1]);
    else form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const res = await fetch(`${restUrl}/${path}`, { method: 'POST', body: form });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

/** The CSV's bytes: a comma in a quoted field, a non-ASCII name and CRLF line ends, so a re-encoded copy shows. */
export const CSV_BYTES = new TextEncoder().encode('name,lat,lon,note\r\n"Zürich",47.37,8.54,"lake, city"\r\nOslo,59.91,10.75,fjord\r\n');
/** A 1×1 PNG (the thumbnails). */
export const PNG_BYTES = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);
export const RESOURCE_JSON = JSON.stringify({ legend: { title: 'Cities' }, colors: ['#336699'] });

/** Makes the group and its three items as `username`; their ids. */
export async function buildSourceGroup(restUrl, username, token) {
  const group = (
    await call(
      restUrl,
      'community/createGroup',
      { title: `Cities solution ${Date.now()}`, access: 'org', tags: 'solution,test', snippet: 'Source of a Solution' },
      token,
    )
  ).group;
  const add = (fields) => call(restUrl, `content/users/${username}/addItem`, fields, token);
  const csv = await add({
    title: 'Cities CSV',
    type: 'CSV',
    tags: 'cities',
    file: [new Blob([CSV_BYTES], { type: 'text/csv' }), 'cities.csv'],
    thumbnail: [new Blob([PNG_BYTES], { type: 'image/png' }), 'csv.png'],
  });
  const csvUrl = `${restUrl}/content/items/${csv.id}/data`;
  const map = await add({
    title: 'Cities map',
    type: 'Web Map',
    typeKeywords: 'ArcGIS Online,Explorer Web Map,Map,Online Map,Web Map',
    tags: 'cities',
    extent: '8,47,11,60',
    text: {
      operationalLayers: [{ id: 'cities', title: 'Cities', layerType: 'CSV', itemId: csv.id, url: csvUrl, visibility: true, opacity: 1 }],
      baseMap: { baseMapLayers: [], title: 'None' },
      spatialReference: { wkid: 102100, latestWkid: 3857 },
      version: '2.24',
    },
    thumbnail: [new Blob([PNG_BYTES], { type: 'image/png' }), 'map.png'],
  });
  const app = await add({
    title: 'Cities app',
    type: 'Web Mapping Application',
    typeKeywords: 'JavaScript,Map,Mapping Site,Online Map,Ready To Use,WAB2D,Web AppBuilder,Web Map',
    tags: 'cities',
    text: { values: { webmap: map.id }, source: 'template' },
    thumbnail: [new Blob([PNG_BYTES], { type: 'image/png' }), 'app.png'],
  });
  // A Web AppBuilder app's URL names the app itself, so it is set once the id is known.
  const portalBase = restUrl.replace(/\/sharing\/rest$/, '');
  await call(restUrl, `content/users/${username}/items/${app.id}/update`, { url: `${portalBase}/apps/webappviewer/index.html?id=${app.id}` }, token);
  for (const id of [csv.id, app.id]) {
    await call(
      restUrl,
      `content/users/${username}/items/${id}/addResources`,
      { file: [new Blob([RESOURCE_JSON], { type: 'application/json' }), 'legend.json'], resourcesPrefix: 'config' },
      token,
    );
  }
  for (const id of [csv.id, map.id, app.id]) {
    await call(restUrl, `content/users/${username}/items/${id}/share`, { groups: group.id, everyone: 'false', org: 'false' }, token);
  }
  return { groupId: group.id, csvId: csv.id, mapId: map.id, appId: app.id };
}
