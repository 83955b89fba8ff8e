/** The checks of one deployment of the suite's Solution (solutionCycle.mjs). */
import assert from 'node:assert/strict';
import { CSV_BYTES, PNG_BYTES, RESOURCE_JSON } from './fixture.mjs';

/** A PNG's width and height from its header (after the signature, IHDR's first two fields). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Asserts that the deployed Solution `deployedId` holds new copies of the source CSV, map and app,
 * owned by `owner` in `orgId`, with ids rewritten, the CSV's file byte for byte, thumbnails and
 * resources; answers the deployed ids keyed by source id.
 */
export async function checkDeployment({ portal, restUrl, src, deployedId, token, owner, orgId }) {
  const solution = await portal.json(`content/items/${deployedId}`, token);
  assert.equal(solution.type, 'Solution', JSON.stringify(solution));
  assert.ok(solution.typeKeywords.includes('Deployed'), solution.typeKeywords.join());
  const data = await portal.json(`content/items/${deployedId}/data`, token);
  const ids = {};
  for (const template of data.templates) {
    const item = await portal.json(`content/items/${template.itemId}`, token);
    const source = item.typeKeywords.find((k) => k.startsWith('source-'))?.slice('source-'.length);
    assert.ok(source && [src.csvId, src.mapId, src.appId].includes(source), item.typeKeywords.join());
    assert.notEqual(item.id, source);
    assert.equal(item.owner, owner);
    assert.equal(item.orgId, orgId);
    assert.equal(item.ownerFolder, solution.ownerFolder, 'deployed into the Solution folder');
    ids[source] = item.id;
  }
  assert.deepEqual(Object.keys(ids).sort(), [src.csvId, src.mapId, src.appId].sort());

  const csv = await portal.bytes(`content/items/${ids[src.csvId]}/data`, token);
  assert.equal(csv.status, 200);
  assert.deepEqual(csv.bytes, CSV_BYTES, 'the CSV file arrives byte for byte');

  const map = await portal.json(`content/items/${ids[src.mapId]}/data`, token);
  assert.equal(map.operationalLayers[0].itemId, ids[src.csvId]);
  assert.equal(map.operationalLayers[0].url, `${restUrl}/content/items/${ids[src.csvId]}/data`);
  const app = await portal.json(`content/items/${ids[src.appId]}/data`, token);
  assert.equal(app.values.webmap, ids[src.mapId]);
  const appItem = await portal.json(`content/items/${ids[src.appId]}`, token);
  assert.match(appItem.url, new RegExp(`/apps/webappviewer/index\\.html\\?id=${ids[src.appId]}$`));

  for (const [sourceId, name] of [
    [src.csvId, 'csv.png'],
    [src.mapId, 'map.png'],
    [src.appId, 'app.png'],
  ]) {
    const item = await portal.json(`content/items/${ids[sourceId]}`, token);
    assert.equal(item.thumbnail, `thumbnail/${name}`);
    const thumb = await portal.bytes(`content/items/${ids[sourceId]}/info/${item.thumbnail}`, token);
    // solution.js takes the thumbnail at ?w=400, which the portal re-encodes: the same 1×1 PNG, not the same bytes.
    assert.equal(thumb.type, 'image/png');
    assert.deepEqual(pngSize(thumb.bytes), pngSize(PNG_BYTES), `${name} arrives`);
  }
  for (const sourceId of [src.csvId, src.appId]) {
    const list = await portal.json(`content/items/${ids[sourceId]}/resources`, token);
    assert.deepEqual(
      list.resources.map((r) => r.resource),
      ['config/legend.json'],
    );
    const resource = await portal.bytes(`content/items/${ids[sourceId]}/resources/config/legend.json`, token);
    assert.equal(new TextDecoder().decode(resource.bytes), RESOURCE_JSON);
  }
  return ids;
}
