/**
 * A guess at an item's type from its URL, for the Add item form: ArcGIS Server names a service by
 * the last part of its path (…/FeatureServer, …/MapServer/0), and an app's URL names the item it
 * opens (?id=, ?appid=, ?webmap=). Only a suggestion: the form shows it and the member may type
 * another type. Null when the URL says nothing.
 */

const SERVICE_TYPES: Record<string, string> = {
  featureserver: 'Feature Service',
  mapserver: 'Map Service',
  imageserver: 'Image Service',
  sceneserver: 'Scene Service',
  vectortileserver: 'Vector Tile Service',
  gpserver: 'Geoprocessing Service',
  geocodeserver: 'Geocoding Service',
  wmsserver: 'WMS',
  wfsserver: 'WFS',
};

export function typeFromUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  // The service is named by the last "…Server" part: a layer (…/FeatureServer/0) or the scene
  // service's layers (…/SceneServer/layers/0) come after it. The OGC endpoints of ArcGIS Server
  // (…/MapServer/WMSServer) name the protocol last, so the last one counts.
  for (let i = parts.length - 1; i >= 0; i--) {
    const type = SERVICE_TYPES[parts[i].toLowerCase()];
    if (type) return type;
  }
  const params = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
  const ogc = params.get('service')?.toUpperCase();
  if (ogc === 'WMS' || ogc === 'WMTS' || ogc === 'WFS') return ogc;
  // A portal's own item page (…/home/item.html?id=) shows an item; it is not an app.
  if (/\/home\/item\.html$/i.test(url.pathname)) return null;
  if (params.get('id') || params.get('appid') || params.get('webmap')) return 'Web Mapping Application';
  const ext = parts
    .at(-1)
    ?.toLowerCase()
    .match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === 'kml' || ext === 'kmz') return 'KML';
  return null;
}
