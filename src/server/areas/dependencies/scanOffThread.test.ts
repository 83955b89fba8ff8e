/**
 * Large item data is parsed for references off the thread that serves requests (issue 35 item 1,
 * docs/security.md "Cost: no request can stall the others"): a web map whose data is over
 * LIMITS.referenceParseOnThreadBytes is added and updated with no JSON.parse of that size on this
 * thread, and its references are indexed all the same (by the worker thread). Asserted by what runs
 * where, not by time, so that a loaded machine does not decide it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DependencyAnswer } from '../../../shared/contract/dependencies.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('admin');
});
afterAll(() => svc?.close());
afterEach(() => vi.restoreAllMocks());

/** A form post (no JSON body for the service to parse: only the item data's own parse is looked at). */
async function post(path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await svc.app.inject({
    method: 'POST',
    url: `/sharing/rest/${path}`,
    payload: new URLSearchParams({ ...fields, f: 'json', token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** Web map data naming `layerId`, padded past the on-thread bound in a field the extractor does not read. */
const largeMap = (layerId: string) =>
  JSON.stringify({
    operationalLayers: [{ id: 'a', layerType: 'ArcGISFeatureLayer', itemId: layerId, title: 'x'.repeat(LIMITS.referenceParseOnThreadBytes + 10_000) }],
    version: '2.31',
  });

/** Lengths of the strings this thread's JSON.parse is given while `run` runs, the large ones only. */
async function largeParsesDuring(run: () => Promise<unknown>): Promise<number[]> {
  const parse = vi.spyOn(JSON, 'parse');
  await run();
  const lengths = parse.mock.calls.map(([text]) => String(text).length).filter((n) => n > LIMITS.referenceParseOnThreadBytes);
  parse.mockRestore();
  return lengths;
}

const dependentsOf = async (id: string) => ((await post(`content/items/${id}/dependents`, {})) as unknown as DependencyAnswer).items.map((i) => i.id);

describe('large item data is read for references on a worker thread', () => {
  it('addItem and update index a large map without parsing its data on the request thread', async () => {
    const layers: string[] = [];
    for (const title of ['Roads', 'Rivers']) {
      const added = await post('content/users/admin/addItem', {
        title,
        type: 'Feature Service',
        url: `https://127.0.0.1/arcgis/rest/services/${title}/FeatureServer`,
      });
      layers.push(added.id as string);
    }
    let mapId = '';
    const onAdd = await largeParsesDuring(async () => {
      const added = await post('content/users/admin/addItem', { title: 'Large map', type: 'Web Map', text: largeMap(layers[0]) });
      expect(added.success, JSON.stringify(added).slice(0, 300)).toBe(true);
      mapId = added.id as string;
    });
    expect(onAdd).toEqual([]);
    expect(await dependentsOf(layers[0])).toEqual([mapId]);

    // The update moves the map to the other layer: indexed by the worker too. Swapped references are
    // not looked for in data this large (both versions would be parsed here): an ordinary data change.
    const onUpdate = await largeParsesDuring(async () => {
      const updated = await post(`content/users/admin/items/${mapId}/update`, { text: largeMap(layers[1]) });
      expect(updated.success, JSON.stringify(updated).slice(0, 300)).toBe(true);
    });
    expect(onUpdate).toEqual([]);
    expect(await dependentsOf(layers[0])).toEqual([]);
    expect(await dependentsOf(layers[1])).toEqual([mapId]);
  });
});
