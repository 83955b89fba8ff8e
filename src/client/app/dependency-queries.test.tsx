/**
 * The dependency hooks choose their source by the portal's `localExtras`: the portal's own
 * operations where it offers them, the graph built in this browser where it does not. Both
 * against the real service (once with LOCAL_EXTRAS on, once off), IndexedDB from fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, deleteItem } from '../api/index.ts';
import { Providers } from './providers.tsx';
import { createQueryClient } from '../lib/queryClient.ts';
import { signInAs } from '../test/render.tsx';
import { recordRequests } from '../test/requests.ts';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { useDependencyGraph, useDependencySummary, useImpact, useItemDependencies } from '../features/dependencies/queries.ts';
import { useDeleteItem } from '../features/content/mutations.ts';

/** Each seed its own service, so one test's maps do not use another test's layer. */
let seeded = 0;
const OWNER = 'publisher1';

let withExtras: ClientTestService;
let withoutExtras: ClientTestService;
beforeAll(async () => {
  [withExtras, withoutExtras] = await Promise.all([startClientService(), startClientService({ localExtras: false })]);
}, 90_000);
afterAll(() => Promise.all([withExtras?.close(), withoutExtras?.close()]));

/** Signs in and adds a layer, a map using it and an app using the map. */
async function seed(svc: ClientTestService) {
  await signInAs(svc, OWNER);
  const SERVICE = `http://127.0.0.1:9/arcgis/rest/services/Roads${++seeded}/FeatureServer`;
  const add = async (input: Parameters<typeof addItem>[2]) => (await addItem(OWNER, undefined, input)).id;
  const layer = await add({ title: 'Roads', type: 'Feature Service', url: SERVICE });
  const map = await add({ title: 'Road map', type: 'Web Map', text: JSON.stringify({ operationalLayers: [{ id: 'r', url: `${SERVICE}/2` }] }) });
  const app = await add({ title: 'Road viewer', type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: map } }) });
  return { layer, map, app };
}

function wrapper() {
  const queryClient = createQueryClient({ retry: false });
  return ({ children }: { children: ReactNode }) => (
    <Providers queryClient={queryClient} env="test">
      {children}
    </Providers>
  );
}

const dependentsCalls = (sent: { path: string; params: URLSearchParams }[]) => sent.filter((r) => /^content\/items\/[0-9a-f]{32}\/dependents$/.test(r.path));
const orgSearches = (sent: { path: string; params: URLSearchParams }[]) => sent.filter((r) => r.path === 'search' && r.params.get('q')?.startsWith('orgid:'));

describe('on a portal with the local extras', () => {
  it('answers through the portal’s operations and builds nothing in the browser', async () => {
    const { layer, map, app } = await seed(withExtras);
    const requests = recordRequests();
    try {
      const { result } = renderHook(
        () => ({ usedBy: useItemDependencies(layer, 'usedBy', { transitive: true }), impact: useImpact([layer, map]), graph: useDependencyGraph() }),
        { wrapper: wrapper() },
      );
      await waitFor(() => expect(result.current.usedBy.data).toBeDefined());
      expect(result.current.usedBy.data!.graph.source).toBe('portal');
      expect(result.current.usedBy.data!.items.map((i) => [i.id, i.depth])).toEqual([
        [map, 1],
        [app, 2],
      ]);
      await waitFor(() => expect(result.current.impact.data).toHaveLength(2));
      expect(result.current.impact.data!.map((a) => a.itemId)).toEqual([layer, map]);
      expect(result.current.impact.data![1].items.map((i) => i.id)).toEqual([app]);
      expect(result.current.graph).toMatchObject({ source: 'portal', building: false });
      const calls = dependentsCalls(requests.sent);
      expect(calls.map((c) => c.params.get('transitive'))).toEqual(['true', 'true', 'true']);
      expect(orgSearches(requests.sent)).toEqual([]);
    } finally {
      requests.stop();
    }
  });
});

describe('on a portal without them (LOCAL_EXTRAS=off)', () => {
  it('builds the graph in the browser once for every hook, and answers from it in the same shapes', async () => {
    const { layer, map, app } = await seed(withoutExtras);
    const requests = recordRequests();
    try {
      const { result } = renderHook(
        () => ({
          usedBy: useItemDependencies(layer, 'usedBy', { transitive: true }),
          uses: useItemDependencies(app, 'uses'),
          impact: useImpact([map]),
          unused: useDependencySummary({ view: 'unused', owners: [OWNER], types: ['Web Mapping Application'] }),
          graph: useDependencyGraph(),
        }),
        { wrapper: wrapper() },
      );
      await waitFor(() => expect(result.current.usedBy.data).toBeDefined());
      const usedBy = result.current.usedBy.data!;
      expect(usedBy.graph).toMatchObject({ source: 'browser', builtAt: expect.any(Number) as number });
      expect(usedBy.items.map((i) => [i.id, i.depth])).toEqual([
        [map, 1],
        [app, 2],
      ]);
      expect(usedBy.hidden).toBe(0);
      expect(result.current.uses.data!.items.map((i) => i.id)).toEqual([map]);
      expect(result.current.impact.data!.map((a) => a.items.map((i) => i.id))).toEqual([[app]]);
      expect(result.current.unused.data!.results.map((r) => r.id)).toEqual([app]);
      expect(result.current.graph).toMatchObject({ source: 'browser', building: false, builtAt: usedBy.graph.builtAt });
      // The portal's operations were never asked; one search of the organization served all five hooks.
      expect(dependentsCalls(requests.sent)).toEqual([]);
      expect(new Set(orgSearches(requests.sent).map((r) => r.params.get('start')))).toEqual(new Set(['1']));
      expect(orgSearches(requests.sent)).toHaveLength(1);
    } finally {
      requests.stop();
    }
  });

  it('an item deleted through the console’s mutation leaves the answers once the graph catches up', async () => {
    const { layer, map, app } = await seed(withoutExtras);
    const { result } = renderHook(() => ({ usedBy: useItemDependencies(layer, 'usedBy', { transitive: true }), remove: useDeleteItem() }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.usedBy.data?.items.map((i) => i.id)).toEqual([map, app]));
    await result.current.remove.mutateAsync({ owner: OWNER, itemId: app });
    await waitFor(() => expect(result.current.usedBy.data?.items.map((i) => i.id)).toEqual([map]));
  });

  it('refresh() brings the graph up to date with a change made elsewhere', async () => {
    const { layer, map } = await seed(withoutExtras);
    const { result } = renderHook(() => ({ usedBy: useItemDependencies(layer, 'usedBy'), graph: useDependencyGraph() }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.usedBy.data?.items.map((i) => i.id)).toEqual([map]));
    const before = result.current.graph.builtAt!;
    await deleteItem(OWNER, map);
    result.current.graph.refresh();
    await waitFor(() => expect(result.current.usedBy.data?.items).toEqual([]));
    expect(result.current.graph.builtAt).toBeGreaterThan(before);
  });
});
