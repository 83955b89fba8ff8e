/**
 * Reassign (spec §4.5, §4.8, §5, §7, §8; facts §3.4, §3.7): callers, every eligibility rule with
 * its CONT_0291 detail, folders, sharing kept or narrowed, relationships, events, the 100-item
 * limit, and that a refused item is left exactly as it was.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { eventsFor, insertItem, shareToGroup } from '../items/manage.test-support.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const word = () => `R${randomUUID().slice(0, 8)}`;
const owner = async (id: string) =>
  (
    await svc.db.query<{ username: string; folder_id: string | null; access: string }>(
      'SELECT u.username, i.folder_id, i.access FROM items i JOIN users u ON u.id = i.owner_id WHERE i.id = $1',
      [id],
    )
  )[0];
const reassign = (from: string, id: string, params: Record<string, string>, as = 'admin') =>
  svc.post(`content/users/${from}/items/${id}/reassign`, params, tokens[as]);
const canReassignItems = (from: string, items: string[], targetUsername: string, as = 'admin') =>
  svc.post(`content/users/${from}/canReassignItems`, { items: items.join(','), targetUsername }, tokens[as]);
const reassignItems = (from: string, items: string[], params: Record<string, string>, as = 'admin') =>
  svc.post(`content/users/${from}/reassignItems`, { items: items.join(','), ...params }, tokens[as]);
const reasonCodes = (body: any) => body.error.details.flatMap((d: any) => d.reasons.map((r: any) => r.code));

async function group(title: string, as = 'admin', extra: Record<string, string> = {}) {
  const body = await svc.post('community/createGroup', { title, access: 'org', ...extra }, tokens[as]);
  return body.group.id as string;
}
const addToGroup = (gid: string, params: Record<string, string>) => svc.post(`community/groups/${gid}/addUsers`, params, tokens.admin);

describe('reassign one item', () => {
  it('moves the item to the target root folder, answers {success, itemId} and records reassignedTo', async () => {
    const id = await insertItem(svc, 'user1', { title: word() });
    expect(await reassign('user1', id, { targetUsername: 'publisher1', targetFolderName: '/' })).toEqual({ success: true, itemId: id, tasksDeactivated: 0 });
    expect(await owner(id)).toMatchObject({ username: 'publisher1', folder_id: null });
    const events = await eventsFor(svc, id);
    expect(events.at(-1)).toEqual({ operation: 'reassign', properties: { reassignedTo: ['publisher1'] } });
  });

  it('creates a missing folder, reuses an existing one by title or id, accepts targetFoldername', async () => {
    const title = word();
    const a = await insertItem(svc, 'user1');
    await reassign('user1', a, { targetUsername: 'publisher1', targetFolderName: title });
    const folder = await svc.db.query<{ id: string; title: string }>(
      'SELECT f.id, f.title FROM folders f JOIN users u ON u.id = f.owner_id WHERE u.username = $1 AND f.title = $2',
      ['publisher1', title],
    );
    expect(folder).toHaveLength(1);
    expect((await owner(a)).folder_id).toBe(folder[0].id);
    const b = await insertItem(svc, 'user1');
    await reassign('user1', b, { targetUsername: 'publisher1', targetFolderName: title.toUpperCase() });
    expect((await owner(b)).folder_id).toBe(folder[0].id);
    const c = await insertItem(svc, 'user1');
    await reassign('user1', c, { targetUsername: 'publisher1', targetFolderName: folder[0].id });
    expect((await owner(c)).folder_id).toBe(folder[0].id);
    const d = await insertItem(svc, 'user1');
    const bulk = await reassignItems('user1', [d], { targetUsername: 'publisher1', targetFoldername: title });
    expect(bulk.results).toEqual([{ itemId: d, success: true, tasksDeactivated: 0 }]);
    expect((await owner(d)).folder_id).toBe(folder[0].id);
  });

  it('refuses bad parameters with a 400 naming them, changing nothing', async () => {
    const id = await insertItem(svc, 'user1');
    expect((await reassign('user1', id, {})).error).toMatchObject({ code: 400, fieldErrors: { targetUsername: 'is required' } });
    expect((await reassign('user1', id, { targetUsername: 'nobody_here' })).error).toMatchObject({
      code: 400,
      fieldErrors: { targetUsername: expect.stringContaining('names no member') },
    });
    expect((await reassign('user1', id, { targetUsername: 'user1' })).error).toMatchObject({
      code: 400,
      fieldErrors: { targetUsername: expect.stringContaining('must differ') },
    });
    expect((await reassign('user1', id, { targetUsername: 'publisher1', targetFolderName: 'a/b' })).error).toMatchObject({
      code: 400,
      fieldErrors: { targetFolderName: expect.any(String) },
    });
    expect((await reassign('user1', id, { targetUsername: 'publisher1', targetFolderName: 'x'.repeat(256) })).error).toMatchObject({ code: 400 });
    expect((await reassign('nobody_here', id, { targetUsername: 'publisher1' })).error).toMatchObject({ code: 400 });
    const get = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/content/users/user1/items/${id}/reassign?f=json&targetUsername=publisher1&token=${tokens.admin}`,
    });
    expect(get.json().error.code).toBe(405);
    expect(await owner(id)).toMatchObject({ username: 'user1' });
  });

  it('an item not owned by the path user is not found (400 CONT_0001); in a bulk request it is a refused entry', async () => {
    const id = await insertItem(svc, 'publisher1');
    expect((await reassign('user1', id, { targetUsername: 'admin' })).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    expect((await svc.post(`content/users/user1/items/${id}/canReassign`, { targetUsername: 'admin' }, tokens.admin)).error).toMatchObject({
      code: 400,
      messageCode: 'CONT_0001',
    });
    const bulk = await reassignItems('user1', [id], { targetUsername: 'admin' });
    expect(bulk.results[0]).toMatchObject({
      itemId: id,
      success: false,
      error: { messageCode: 'CONT_0291', details: [expect.objectContaining({ reasons: [expect.objectContaining({ code: 'itemNotFound' })] })] },
    });
    expect(await owner(id)).toMatchObject({ username: 'publisher1' });
  });
});

describe('scheduled tasks', () => {
  it("the item's active tasks are deactivated with the transfer, and counted in the answer", async () => {
    const id = await insertItem(svc, 'user1', { type: 'Notebook' });
    const other = await insertItem(svc, 'user1', { type: 'Notebook' });
    for (const [taskId, itemId, active] of [
      [word(), id, true],
      [word(), id, true],
      [word(), id, false],
      [word(), other, true],
    ] as const) {
      await svc.db.query(
        `INSERT INTO tasks (id, org_id, owner_id, type, item_id, minute, hour, day_of_month, month, day_of_week, active, next_run_at, created, modified)
         SELECT $1, u.org_id, u.id, 'ExecuteNotebook', $2, '0', '1', '*', '*', '*', $3, 1, 0, 0 FROM users u WHERE u.username = 'user1'`,
        [taskId, itemId, active],
      );
    }
    expect(await reassign('user1', id, { targetUsername: 'publisher1' })).toEqual({ success: true, itemId: id, tasksDeactivated: 2 });
    const tasks = await svc.db.query<{ item_id: string; active: boolean }>('SELECT item_id, active FROM tasks WHERE item_id = ANY ($1::text[])', [[id, other]]);
    expect(tasks.filter((t) => t.item_id === id && t.active)).toHaveLength(0);
    expect(tasks.filter((t) => t.item_id === other && t.active)).toHaveLength(1);
    const bulk = await reassignItems('user1', [other], { targetUsername: 'publisher1' });
    expect(bulk.results).toEqual([{ itemId: other, success: true, tasksDeactivated: 1 }]);
  });
});

describe('callers', () => {
  it('an owner needs portal:user:reassignItems (publishers have it, users do not)', async () => {
    const mine = await insertItem(svc, 'user1');
    expect((await reassign('user1', mine, { targetUsername: 'publisher1' }, 'user1')).error).toMatchObject({
      code: 403,
      details: [expect.stringContaining('portal:user:reassignItems')],
    });
    expect((await svc.post(`content/users/user1/canReassignItems`, { items: mine, targetUsername: 'publisher1' }, tokens.user1)).error.code).toBe(403);
    const pub = await insertItem(svc, 'publisher1');
    expect(await reassign('publisher1', pub, { targetUsername: 'user1' }, 'publisher1')).toMatchObject({ success: true });
    expect(await owner(pub)).toMatchObject({ username: 'user1' });
  });

  it("a non-administrator cannot transfer another member's items; another organization's administrator cannot either", async () => {
    const id = await insertItem(svc, 'user1');
    // In the organization: 403. From another organization the member is not visible: the answer a made-up name gets (http/userPath.ts).
    for (const [as, code] of [
      ['publisher1', 403],
      ['partner_admin', 400],
    ] as const) {
      expect((await reassign('user1', id, { targetUsername: 'publisher1' }, as)).error).toMatchObject({ code });
      expect((await canReassignItems('user1', [id], 'publisher1', as)).error).toMatchObject({ code });
      expect((await reassignItems('user1', [id], { targetUsername: 'publisher1' }, as)).error).toMatchObject({ code });
    }
    expect(await owner(id)).toMatchObject({ username: 'user1' });
  });

  it('a custom administrative role transfers with portal:admin:reassignItems, not without', async () => {
    const roleWith = `r${word()}`.slice(0, 16);
    const roleWithout = `s${word()}`.slice(0, 16);
    await svc.db.query(`INSERT INTO roles (org_id, id, name, privileges, created, modified) VALUES ($1, $2, $2, $3, 0, 0), ($1, $4, $4, $5, 0, 0)`, [
      svc.orgId,
      roleWith,
      ['portal:admin:viewItems', 'portal:admin:reassignItems', 'portal:user:createItem'],
      roleWithout,
      ['portal:admin:viewItems', 'portal:user:createItem'],
    ]);
    const id = await insertItem(svc, 'user1');
    await svc.db.query(`UPDATE users SET role_id = $1 WHERE username = 'viewer1'`, [roleWithout]);
    try {
      expect((await reassign('user1', id, { targetUsername: 'publisher1' }, 'viewer1')).error).toMatchObject({ code: 403 });
      await svc.db.query(`UPDATE users SET role_id = $1 WHERE username = 'viewer1'`, [roleWith]);
      expect(await reassign('user1', id, { targetUsername: 'publisher1' }, 'viewer1')).toMatchObject({ success: true });
    } finally {
      await svc.db.query(`UPDATE users SET role_id = 'iAAAAAAAAAAAAAAA' WHERE username = 'viewer1'`);
    }
  });
});

describe('eligibility of the target (403 CONT_0291, one detail per item)', () => {
  it('a target without the privilege to receive content (Viewer) is refused; the detail has the spec fields and a reason', async () => {
    const id = await insertItem(svc, 'user1', { type: 'Feature Service', typeKeywords: ['Hosted Service', 'Custom'] });
    await svc.db.query('UPDATE items SET url = $2 WHERE id = $1', [id, 'https://example.com/FeatureServer']);
    const body = await reassign('user1', id, { targetUsername: 'viewer1' });
    expect(body.error).toMatchObject({ code: 403, messageCode: 'CONT_0291' });
    expect(body.error.details).toEqual([
      expect.objectContaining({
        itemId: id,
        type: 'Feature Service',
        url: 'https://example.com/FeatureServer',
        reservedTypeKeywords: ['Hosted Service'],
        owner: 'user1',
        reason: expect.stringContaining('receive content'),
      }),
    ]);
    expect(reasonCodes(body)).toEqual(['targetCannotReceive', 'targetCannotOwn']);
    expect(await owner(id)).toMatchObject({ username: 'user1' });
    expect((await svc.post(`content/users/user1/items/${id}/canReassign`, { targetUsername: 'viewer1' }, tokens.admin)).error.messageCode).toBe('CONT_0291');
  });

  it('a target in another organization is refused', async () => {
    const id = await insertItem(svc, 'user1');
    expect(reasonCodes(await reassign('user1', id, { targetUsername: 'partner_admin' }))).toContain('targetOtherOrg');
    expect(await owner(id)).toMatchObject({ username: 'user1' });
  });

  it('a disabled target is refused', async () => {
    const id = await insertItem(svc, 'user1');
    await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'publisher1'`);
    try {
      expect(reasonCodes(await reassign('user1', id, { targetUsername: 'publisher1' }))).toEqual(['targetDisabled']);
    } finally {
      await svc.db.query(`UPDATE users SET disabled = false WHERE username = 'publisher1'`);
    }
  });

  it('an item still uploading is refused', async () => {
    const id = await insertItem(svc, 'user1');
    await svc.db.query(`UPDATE items SET status = 'partial' WHERE id = $1`, [id]);
    expect(reasonCodes(await reassign('user1', id, { targetUsername: 'publisher1' }))).toEqual(['itemNotReady']);
  });
});

describe('groups the item is shared to', () => {
  it('the target must be a member of every group; the shares stay after the transfer', async () => {
    const gid = await group(word());
    await addToGroup(gid, { users: 'user1' });
    const id = await insertItem(svc, 'user1');
    await shareToGroup(svc, id, gid);
    const refused = await reassign('user1', id, { targetUsername: 'publisher1' });
    expect(refused.error.details[0].reasons).toEqual([expect.objectContaining({ code: 'targetNotInGroup', groupId: gid })]);
    await addToGroup(gid, { users: 'publisher1' });
    expect(await reassign('user1', id, { targetUsername: 'publisher1' })).toMatchObject({ success: true });
    expect(await svc.db.query('SELECT group_id FROM item_shares WHERE item_id = $1', [id])).toEqual([{ group_id: gid }]);
  });

  it('for a view-only group the target must be a manager', async () => {
    const gid = await group(word(), 'admin', { isViewOnly: 'true' });
    await addToGroup(gid, { users: 'publisher1' });
    const id = await insertItem(svc, 'user1');
    await shareToGroup(svc, id, gid);
    const refused = await reassign('user1', id, { targetUsername: 'publisher1' });
    expect(refused.error.details[0].reasons).toEqual([expect.objectContaining({ code: 'targetNotGroupManager', groupId: gid })]);
    await svc.post(`community/groups/${gid}/updateUsers`, { admins: 'publisher1' }, tokens.admin);
    expect(await reassign('user1', id, { targetUsername: 'publisher1' })).toMatchObject({ success: true });
  });
});

describe('sharing the target may not give', () => {
  it('public access narrows to the organization when the target lacks shareToPublic (unshare event)', async () => {
    const role = `p${word()}`.slice(0, 16);
    await svc.db.query(`INSERT INTO roles (org_id, id, name, privileges, created, modified) VALUES ($1, $2, $2, $3, 0, 0)`, [
      svc.orgId,
      role,
      ['portal:user:createItem', 'portal:user:receiveItems', 'portal:user:shareToOrg'],
    ]);
    const [{ role_id: before }] = await svc.db.query<{ role_id: string | null }>(`SELECT role_id FROM users WHERE username = 'user1'`);
    await svc.db.query(`UPDATE users SET role_id = $1 WHERE username = 'user1'`, [role]);
    try {
      const id = await insertItem(svc, 'publisher1', { access: 'public' });
      expect(await reassign('publisher1', id, { targetUsername: 'user1' })).toMatchObject({ success: true, unsharedFrom: ['Everyone'] });
      expect(await owner(id)).toMatchObject({ username: 'user1', access: 'org' });
      expect((await eventsFor(svc, id)).map((e) => e.operation)).toEqual(['unshare', 'reassign']);
    } finally {
      await svc.db.query(`UPDATE users SET role_id = $1 WHERE username = 'user1'`, [before]);
    }
  });

  it('a target who may share publicly keeps the item public', async () => {
    const id = await insertItem(svc, 'user1', { access: 'public' });
    expect(await reassign('user1', id, { targetUsername: 'publisher1' })).toEqual({ success: true, itemId: id, tasksDeactivated: 0 });
    expect(await owner(id)).toMatchObject({ access: 'public' });
  });
});

describe('relationships', () => {
  const relate = (user: string, originItemId: string, destinationItemId: string, relationshipType: string) =>
    svc.post(`content/users/${user}/addRelationship`, { originItemId, destinationItemId, relationshipType }, tokens[user]);

  it('an item tied by a one-owner relationship moves only with its partner; together they move and the relationship passes to the new owner', async () => {
    const service = await insertItem(svc, 'user1', { type: 'Feature Service' });
    const data = await insertItem(svc, 'user1', { type: 'CSV' });
    expect(await relate('user1', service, data, 'Service2Data')).toEqual({ success: true });
    const alone = await reassign('user1', service, { targetUsername: 'publisher1' });
    expect(alone.error.details[0].reasons).toEqual([expect.objectContaining({ code: 'relatedItemStays', relatedItemId: data })]);
    expect(await canReassignItems('user1', [service, data], 'publisher1')).toEqual({
      results: [
        { itemId: service, success: true },
        { itemId: data, success: true },
      ],
    });
    const both = await reassignItems('user1', [service, data], { targetUsername: 'publisher1' });
    expect(both.results.map((r: any) => r.success)).toEqual([true, true]);
    const related = await svc.post(`content/items/${service}/relatedItems`, { relationshipTypes: 'Service2Data', direction: 'forward' }, tokens.publisher1);
    expect(related.relatedItems.map((i: any) => i.id)).toEqual([data]);
    // The new owner manages the relationship now.
    expect(
      await svc.post(
        'content/users/publisher1/deleteRelationship',
        { originItemId: service, destinationItemId: data, relationshipType: 'Service2Data' },
        tokens.publisher1,
      ),
    ).toEqual({ success: true });
  });

  it('a partner refused for another reason holds back the item tied to it', async () => {
    const gid = await group(word());
    await addToGroup(gid, { users: 'user1' });
    const service = await insertItem(svc, 'user1', { type: 'Feature Service' });
    const data = await insertItem(svc, 'user1', { type: 'CSV' });
    await relate('user1', service, data, 'Service2Data');
    await shareToGroup(svc, data, gid);
    const body = await reassignItems('user1', [service, data], { targetUsername: 'publisher1' });
    expect(body.results.map((r: any) => [r.itemId, r.success])).toEqual([
      [service, false],
      [data, false],
    ]);
    expect(body.results[0].error.details[0].reasons).toEqual([expect.objectContaining({ code: 'relatedItemStays', relatedItemId: data })]);
    expect(body.results[1].error.details[0].reasons).toEqual([expect.objectContaining({ code: 'targetNotInGroup' })]);
    expect((await owner(service)).username).toBe('user1');
  });

  it('a relationship that does not need one owner (Map2Service) does not hold the item back', async () => {
    const map = await insertItem(svc, 'user1', { type: 'Web Map' });
    const layer = await insertItem(svc, 'publisher1', { type: 'Feature Service', access: 'org' });
    await relate('user1', map, layer, 'Map2Service');
    expect(await reassign('user1', map, { targetUsername: 'admin' })).toMatchObject({ success: true });
  });

  it('a view of a view cannot change owner', async () => {
    const view = await insertItem(svc, 'user1', { type: 'Feature Service', typeKeywords: ['View Service'] });
    const viewOfView = await insertItem(svc, 'user1', { type: 'Feature Service', typeKeywords: ['View Service'] });
    await relate('user1', view, viewOfView, 'Service2Service');
    const body = await reassign('user1', viewOfView, { targetUsername: 'publisher1' });
    expect(body.error.details[0]).toMatchObject({
      reservedTypeKeywords: ['View Service'],
      reasons: [expect.objectContaining({ code: 'viewOfView', relatedItemId: view })],
    });
    expect(await reassign('user1', view, { targetUsername: 'publisher1' })).toMatchObject({ success: true });
  });
});

describe('canReassignItems and reassignItems', () => {
  it('at most 100 ids: 101 is a 400 naming items; none is a 400 too', async () => {
    const ids = Array.from({ length: 101 }, () => randomUUID().replaceAll('-', ''));
    for (const op of ['canReassignItems', 'reassignItems']) {
      const over = await svc.post(`content/users/user1/${op}`, { items: ids.join(','), targetUsername: 'publisher1' }, tokens.admin);
      expect(over.error).toMatchObject({ code: 400, fieldErrors: { items: 'may name at most 100 items' } });
      expect((await svc.post(`content/users/user1/${op}`, { items: '', targetUsername: 'publisher1' }, tokens.admin)).error).toMatchObject({
        code: 400,
        fieldErrors: { items: expect.any(String) },
      });
    }
  });

  it('100 transferable items: canReassignItems answers every one, reassignItems moves every one', async () => {
    const ids = await Promise.all(Array.from({ length: 100 }, () => insertItem(svc, 'user1')));
    const check = await canReassignItems('user1', ids, 'publisher1');
    expect(check.results).toHaveLength(100);
    expect(check.results.every((r: any) => r.success)).toBe(true);
    const run = await reassignItems('user1', ids, { targetUsername: 'publisher1', targetFolderName: word() });
    expect(run.results.filter((r: any) => r.success)).toHaveLength(100);
    const [{ n }] = await svc.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM items i JOIN users u ON u.id = i.owner_id WHERE u.username = 'publisher1' AND i.id = ANY ($1::text[])`,
      [ids],
    );
    expect(n).toBe(100);
  });

  it('a mix: canReassignItems names only the refused items; reassignItems moves the others and leaves the refused ones untouched', async () => {
    const gid = await group(word());
    await addToGroup(gid, { users: 'user1' });
    const ok1 = await insertItem(svc, 'user1');
    const ok2 = await insertItem(svc, 'user1');
    const shared = await insertItem(svc, 'user1', { access: 'org' });
    await shareToGroup(svc, shared, gid);
    const missing = randomUUID().replaceAll('-', '');
    const check = await canReassignItems('user1', [ok1, shared, ok2, missing], 'publisher1');
    expect(check.error).toMatchObject({ code: 403, messageCode: 'CONT_0291' });
    expect(check.error.details.map((d: any) => [d.itemId, d.reasons[0].code])).toEqual([
      [shared, 'targetNotInGroup'],
      [missing, 'itemNotFound'],
    ]);
    const run = await reassignItems('user1', [ok1, shared, ok2, missing], { targetUsername: 'publisher1' });
    expect(run.results.map((r: any) => [r.itemId, r.success])).toEqual([
      [ok1, true],
      [shared, false],
      [ok2, true],
      [missing, false],
    ]);
    expect(run.results[1].error).toMatchObject({ code: 403, messageCode: 'CONT_0291', details: [expect.objectContaining({ itemId: shared, owner: 'user1' })] });
    expect(await owner(shared)).toMatchObject({ username: 'user1', access: 'org' });
    expect((await eventsFor(svc, shared)).map((e) => e.operation)).toEqual([]);
    expect((await owner(ok2)).username).toBe('publisher1');
  });

  it('an owner checks their own items (with portal:user:reassignItems)', async () => {
    const id = await insertItem(svc, 'publisher1');
    expect(await canReassignItems('publisher1', [id], 'user1', 'publisher1')).toEqual({ results: [{ itemId: id, success: true }] });
    expect(await svc.post(`content/users/publisher1/items/${id}/canReassign`, { targetUsername: 'user1' }, tokens.publisher1)).toEqual({
      success: true,
      itemId: id,
    });
  });

  it('a target refused for every item: reassignItems answers each item refused and moves nothing', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    const run = await reassignItems('user1', ids, { targetUsername: 'viewer1', targetFolderName: 'NeverMade' });
    expect(run.results.every((r: any) => !r.success && r.error.messageCode === 'CONT_0291')).toBe(true);
    expect(await svc.db.query(`SELECT 1 FROM folders WHERE title = 'NeverMade'`)).toHaveLength(0);
  });
});

describe('never half an item', () => {
  it('two transfers of the same items at once: each item moves once, to one target', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    const [a, b] = await Promise.all([reassignItems('user1', ids, { targetUsername: 'publisher1' }), reassignItems('user1', ids, { targetUsername: 'admin' })]);
    for (const [i, id] of ids.entries()) {
      const wins = [a.results[i].success, b.results[i].success].filter(Boolean);
      expect(wins).toHaveLength(1);
      const events = (await eventsFor(svc, id)).filter((e) => e.operation === 'reassign');
      expect(events).toHaveLength(1);
      expect(events[0].properties.reassignedTo).toEqual([(await owner(id)).username]);
    }
  });

  it('a failure while writing the transfer leaves every item, folder and event as it was', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    const folder = word();
    // Make the last write of the transfer (the reassign events) fail.
    await svc.db.exec(`
      CREATE FUNCTION refuse_reassign_event() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_reassign_event BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.operation = 'reassign' AND NEW.subject_id = '${ids[1]}') EXECUTE FUNCTION refuse_reassign_event();
    `);
    try {
      const body = await reassignItems('user1', ids, { targetUsername: 'publisher1', targetFolderName: folder });
      expect(body.error).toMatchObject({ code: 500 });
    } finally {
      await svc.db.exec('DROP TRIGGER refuse_reassign_event ON events; DROP FUNCTION refuse_reassign_event();');
    }
    for (const id of ids) expect(await owner(id)).toMatchObject({ username: 'user1', folder_id: null });
    expect(await svc.db.query('SELECT 1 FROM folders WHERE title = $1', [folder])).toHaveLength(0);
    expect((await eventsFor(svc, ids[0])).map((e) => e.operation)).toEqual([]);
  });
});
