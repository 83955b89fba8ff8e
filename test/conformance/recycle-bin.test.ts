/**
 * The recycle bin through Esri's client (removeItem, request) against the running portal over HTTP:
 * delete moves an item to the bin (invisible until restored), restore brings back its data bytes,
 * resources, sharing, relationships and the references of items that use it; permanentDelete; the
 * 14-day retention purge (once, on a driven clock); other members and organizations refused.
 */
import {
  addItemRelationship,
  addItemResource,
  createGroup,
  createItem,
  getItem,
  getItemData,
  getItemGroups,
  getRelatedItems,
  removeItem,
  searchItems,
  setItemAccess,
  shareItemWithGroup,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetentionSweeps } from '../../src/server/jobs/retention.ts';
import { RECYCLE_BIN_RETENTION_MS } from '../../src/shared/contract/recycleBin.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';
import { scaleOutInstances } from '../support/scaleOut.ts';
import { startService, type TestService } from '../support/service.ts';

const clock = { t: Date.now() };
const inProcess = !scaleOutInstances();
let svc: TestService;
let portal: string;
let user1: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;
let admin: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;

beforeAll(async () => {
  // The driven clock reaches an in-process service only; scaled out, the purge test is left out.
  svc = await startService(inProcess ? { clock: { now: () => clock.t } } : {});
  portal = await svc.listen();
  [user1, publisher, admin, partner] = await signInDemo(portal, 'user1', 'publisher1', 'admin', 'partner_admin');
});
afterAll(() => svc.close());

const itemUrl = (owner: string, id: string, op: string) => `${portal}/content/users/${owner}/items/${id}/${op}`;
const restore = (id: string, authentication: ArcGISIdentityManager, owner = 'user1') => request(itemUrl(owner, id, 'restore'), { authentication });
const bin = (authentication: ArcGISIdentityManager, params: Record<string, unknown> = {}) =>
  request(`${portal}/content/portals/self`, { authentication, httpMethod: 'GET', params: { recycleBinItems: true, num: 100, ...params } });
const binIds = async (authentication: ArcGISIdentityManager) => ((await bin(authentication)).items as { id: string }[]).map((i) => i.id);
const csv = (title: string, body: string) =>
  createItem({ item: { title, type: 'CSV' }, file: new File([body], `${title}.csv`, { type: 'text/csv' }), authentication: user1 });
const storedFiles = async () => (await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM recycled_item_blobs'))[0].n;

describe('the recycle bin', () => {
  it('delete → listed in the bin, invisible elsewhere → restore brings back data, resources, sharing, relationships and references', async () => {
    const layer = (await csv('Hydrants', 'id,x\n1,2\n')).id;
    await addItemResource({ id: layer, owner: 'user1', name: 'style.json', content: '{"color":"red"}', authentication: user1 });
    const group = (await createGroup({ group: { title: `Bin ${clock.t}`, access: 'org', tags: ['bin'] }, authentication: user1 })).group.id;
    await shareItemWithGroup({ id: layer, groupId: group, authentication: user1 });
    await setItemAccess({ id: layer, owner: 'user1', access: 'org', authentication: user1 });
    // A web map that uses the CSV (a reference in its data) and a service published from it (a relationship).
    const text = JSON.stringify({ operationalLayers: [{ itemId: layer, url: 'https://example.invalid/FeatureServer/0' }] });
    const map = (await createItem({ item: { title: 'Hydrant map', type: 'Web Map' }, text, authentication: user1 })).id;
    const service = (
      await createItem({
        item: { title: 'Hydrant service', type: 'Feature Service', url: 'https://example.invalid/arcgis/rest/services/H/FeatureServer' },
        authentication: user1,
      })
    ).id;
    await addItemRelationship({ originItemId: service, destinationItemId: layer, relationshipType: 'Service2Data', authentication: user1 });

    expect(await removeItem({ id: layer, owner: 'user1', authentication: user1 })).toEqual({ success: true, itemId: layer });
    expect((await rejection(getItem(layer, { authentication: user1 }))).code).toBe('CONT_0001');
    expect((await searchItems({ q: 'Hydrants', authentication: user1 })).results.map((r) => r.id)).not.toContain(layer);
    expect((await getRelatedItems({ id: service, relationshipType: 'Service2Data', authentication: user1 })).relatedItems).toEqual([]);
    const listed = await bin(user1);
    expect(listed.items).toContainEqual(
      expect.objectContaining({ id: layer, owner: 'user1', title: 'Hydrants', type: 'CSV', expires: expect.any(Number), deleted: expect.any(Number) }),
    );
    expect(listed.items.find((i: { id: string }) => i.id === layer).expires - listed.items.find((i: { id: string }) => i.id === layer).deleted).toBe(
      RECYCLE_BIN_RETENTION_MS,
    );
    expect(await request(itemUrl('user1', layer, 'canRestore'), { authentication: user1, httpMethod: 'GET' })).toEqual({ itemId: layer, success: true });

    expect(await restore(layer, user1)).toEqual({ itemId: layer, success: true });
    expect(await binIds(user1)).not.toContain(layer);
    expect(await getItem(layer, { authentication: user1 })).toMatchObject({ id: layer, access: 'org', ownerFolder: null });
    const token = await svc.tokenFor('user1');
    expect(await (await fetch(`${portal}/content/items/${layer}/data?token=${token}`)).text()).toBe('id,x\n1,2\n');
    expect(await (await fetch(`${portal}/content/items/${layer}/resources/style.json?token=${token}`)).json()).toEqual({ color: 'red' });
    const groups = await getItemGroups(layer, { authentication: user1 });
    expect([...(groups.admin ?? []), ...(groups.member ?? []), ...(groups.other ?? [])].map((g) => g.id)).toContain(group);
    expect((await getRelatedItems({ id: service, relationshipType: 'Service2Data', authentication: user1 })).relatedItems.map((i) => i.id)).toEqual([layer]);
    const dependents = await request(`${portal}/content/items/${layer}/dependents`, { authentication: user1, httpMethod: 'GET' });
    expect(JSON.stringify(dependents)).toContain(map);
    expect(await getItemData(map, { authentication: user1 })).toEqual(JSON.parse(text));
  });

  it('permanentDelete skips the bin; permanentDelete of a recycled item empties its entry and its files', async () => {
    const gone = (await csv('Gone', 'a\n')).id;
    // rest-js 4.10.2's removeItem has no permanentDelete; later versions send it in the query, as here.
    expect(await request(`${itemUrl('user1', gone, 'delete')}?permanentDelete=true`, { authentication: user1 })).toEqual({ success: true, itemId: gone });
    expect(await binIds(user1)).not.toContain(gone);
    const later = (await csv('Later', 'b\n')).id;
    await removeItem({ id: later, owner: 'user1', authentication: user1 });
    const before = await storedFiles();
    expect(before).toBeGreaterThan(0);
    await request(itemUrl('user1', later, 'delete'), { authentication: user1, params: { permanentDelete: true } });
    expect(await binIds(user1)).not.toContain(later);
    expect(await storedFiles()).toBe(before - 1);
    expect((await rejection(restore(later, user1))).code).toBe('CONT_0001');
  });

  it('refuses other members and organizations, and lists only what the caller may see', async () => {
    const mine = (await csv('Mine', 'c\n')).id;
    await removeItem({ id: mine, owner: 'user1', authentication: user1 });
    // Another member without the privilege: refused with the documented 403.
    const other = await rejection(restore(mine, publisher));
    expect(other.response).toMatchObject({ error: { code: 403 } });
    expect(await binIds(publisher)).not.toContain(mine);
    // Another organization's administrator: the item does not exist for them, nor does the bin.
    expect((await rejection(restore(mine, partner))).response).toMatchObject({
      error: { code: 400, message: expect.stringMatching(/does not exist or is inaccessible/) },
    });
    expect(await binIds(partner)).not.toContain(mine);
    const otherBin = request(`${portal}/content/portals/${svc.orgId}`, { authentication: partner, params: { recycleBinItems: true } });
    expect((await rejection(otherBin)).response).toMatchObject({ error: { code: 403 } });
    // The default administrator sees and restores it.
    expect(await binIds(admin)).toContain(mine);
    expect(await restore(mine, admin)).toEqual({ itemId: mine, success: true });
    // Without recycleBinItems=true the path names what it answers.
    expect((await rejection(request(`${portal}/content/portals/self`, { authentication: admin, httpMethod: 'GET' }))).response).toMatchObject({
      error: { code: 400 },
    });
  });

  it.skipIf(!inProcess)('purges an item 14 days after its delete, once, with its files', async () => {
    const old = (await csv('Old', 'd\n')).id;
    await removeItem({ id: old, owner: 'user1', authentication: user1 });
    const ctx = svc.app.portal;
    await runRetentionSweeps(ctx, { pauseMs: 0 });
    expect(await binIds(user1)).toContain(old);
    clock.t += RECYCLE_BIN_RETENTION_MS + 1;
    await Promise.all([runRetentionSweeps(ctx, { pauseMs: 0 }), runRetentionSweeps(ctx, { pauseMs: 0 })]);
    const token = await svc.tokenFor('user1');
    const listed = await svc.post('content/portals/self', { recycleBinItems: 'true' }, token);
    expect(listed.items.map((i: { id: string }) => i.id)).not.toContain(old);
    const purges = await svc.db.query(`SELECT 1 FROM events WHERE subject_id = $1 AND operation = 'delete' AND data->>'permanent' = 'retention'`, [old]);
    expect(purges).toHaveLength(1);
    expect(await svc.db.query('SELECT 1 FROM recycled_item_blobs WHERE item_id = $1', [old])).toEqual([]);
  });
});
