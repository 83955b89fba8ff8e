/**
 * Relationships copied from a portal without this portal's extras (the real local portal started with
 * LOCAL_EXTRAS=off, as ArcGIS Online or Enterprise answers): Related Items does not say by which type
 * an item is related, so the copy asks one request per relationship type (the documented
 * `relationshipTypes` naming one type), and recreates each relationship among the copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../api/index.ts';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { applyPlan, undoCopy } from './apply.ts';
import { connectAs } from './copy.test-support.ts';
import { planCopy } from './plan.ts';
import { addItem, getItem, type PortalConnection } from './portal.ts';
import { addRelationshipIn, forwardRelationships, originTypesFor } from './sharing.ts';

let svc: ClientTestService;
let source: PortalConnection;
let target: PortalConnection;
let mapId: string;
let collectionId: string;
let serviceId: string;

beforeAll(async () => {
  svc = await startClientService({ localExtras: false });
  source = await connectAs(svc, 'admin', svc.orgId);
  target = await connectAs(svc, 'partner_admin', svc.partnerOrgId);
  collectionId = await addItem(source, { title: 'Stops', type: 'Feature Collection', tags: ['t'], text: JSON.stringify({ layers: [] }) });
  serviceId = await addItem(source, {
    title: 'Routes',
    type: 'Feature Service',
    tags: ['t'],
    url: 'http://127.0.0.1:9/arcgis/rest/services/Routes/FeatureServer',
  });
  mapId = await addItem(source, { title: 'Transit map', type: 'Web Map', tags: ['t'], text: JSON.stringify({ operationalLayers: [], version: '2.31' }) });
  await addRelationshipIn(source, mapId, collectionId, 'Map2FeatureCollection');
  await addRelationshipIn(source, mapId, serviceId, 'Map2Service');
}, 60_000);
afterAll(() => svc?.close());

const sorted = <T extends { type: string }>(list: T[]) => [...list].sort((a, b) => a.type.localeCompare(b.type));

describe('relationships from a portal without local extras', () => {
  it('the portal really lacks them: related items do not say their relationship type', async () => {
    const answer = await request<{ localExtras?: unknown }>('portals/self', {}, { portalUrl: source.portalUrl, token: source.token });
    expect(answer).not.toHaveProperty('localExtras');
    const related = await request<{ relatedItems: object[] }>(
      `content/items/${mapId}/relatedItems`,
      { relationshipTypes: 'Map2Service', direction: 'forward' },
      { portalUrl: source.portalUrl, token: source.token },
    );
    expect(related.relatedItems).toHaveLength(1);
    expect(related.relatedItems[0]).not.toHaveProperty('relationshipTypes');
  });

  it('are read one relationship type at a time and recreated among the copies', async () => {
    const items = await Promise.all([mapId, collectionId, serviceId].map((id) => getItem(source, id)));
    const watch = recordRequests();
    let plan;
    try {
      plan = await planCopy(source, target, items);
    } finally {
      watch.stop();
    }
    const asked = watch.sent.filter((r) => r.path.endsWith(`${mapId}/relatedItems`));
    // One request naming every type the map can be the origin of, then each type on its own.
    const types = asked.map((r) => r.params.get('relationshipTypes'));
    expect(types).toEqual([originTypesFor('Web Map').join(','), ...originTypesFor('Web Map')]);
    expect(asked.every((r) => r.params.get('direction') === 'forward' && !r.params.has('relationshipType'))).toBe(true);
    const map = plan.steps.find((s) => s.source.id === mapId)!;
    expect(sorted(map.relationships)).toEqual([
      { type: 'Map2FeatureCollection', destinationId: collectionId, destinationTitle: 'Stops' },
      { type: 'Map2Service', destinationId: serviceId, destinationTitle: 'Routes' },
    ]);

    const result = await applyPlan(plan, source, target);
    const copyOf = (id: string) => result.items.find((i) => i.sourceId === id)!.targetId;
    expect(sorted(await forwardRelationships(target, { id: copyOf(mapId), type: 'Web Map' }))).toEqual([
      { type: 'Map2FeatureCollection', destinationId: copyOf(collectionId) },
      { type: 'Map2Service', destinationId: copyOf(serviceId) },
    ]);
    expect(await undoCopy(result, target)).toEqual([]);
  });

  it('a refused token is the portal error, not an empty list', async () => {
    await expect(forwardRelationships({ ...source, token: 'not-a-token' }, { id: mapId, type: 'Web Map' })).rejects.toMatchObject({ code: 498 });
  });
});
