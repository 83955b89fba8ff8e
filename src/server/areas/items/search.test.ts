/** `GET search`: visibility built in SQL, the q fields and operators, sorting, paging, authoritative first. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { getJson, insertItem, shareToGroup } from './manage.test-support.ts';
import { ITEM_COLUMNS } from './repo.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
/** A word only this suite's items carry, so the demo data never gets in the way. */
const W = `zq${randomUUID().slice(0, 8)}`;
const ids: Record<string, string> = {};
let groupId: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  const g = await svc.post('community/createGroup', { title: `G ${W}`, access: 'private' }, tokens.publisher1);
  groupId = g.group.id;
  ids.private = await insertItem(svc, 'user1', { title: `${W} Private Lake`, tags: [W, 'water'], created: 1000, modified: 1000 });
  ids.org = await insertItem(svc, 'user1', {
    title: `${W} Org Park`,
    tags: [W, 'parks'],
    type: 'Feature Service',
    access: 'org',
    created: 2000,
    modified: 2000,
  });
  ids.public = await insertItem(svc, 'publisher1', {
    title: `${W} Public River`,
    tags: [W, 'water'],
    access: 'public',
    snippet: 'A river snippet',
    created: 3000,
    modified: 3000,
  });
  ids.shared = await insertItem(svc, 'admin', { title: `${W} Shared Trail`, tags: [W], typeKeywords: ['Hiking'], created: 4000, modified: 4000 });
  ids.auth = await insertItem(svc, 'user1', {
    title: `${W} Authoritative Base`,
    tags: [W],
    access: 'public',
    contentStatus: 'org_authoritative',
    created: 500,
    modified: 500,
  });
  ids.partner = await insertItem(svc, 'partner_admin', { title: `${W} Partner Org Item`, tags: [W], access: 'org', created: 5000, modified: 5000 });
  await shareToGroup(svc, ids.shared, groupId);
});
afterAll(() => svc.close());

const search = (q: string, who?: string, extra: Record<string, string> = {}) =>
  getJson(svc, 'search', { q, num: '100', ...extra }, who ? tokens[who] : undefined);
const found = async (q: string, who?: string, extra: Record<string, string> = {}) => {
  const body = await search(q, who, extra);
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  return (body.results as { id: string }[]).map((r) => Object.entries(ids).find(([, v]) => v === r.id)?.[0] ?? r.id);
};

describe('search: who sees what', () => {
  it('an upload still open is found by its owner only', async () => {
    const partial = await insertItem(svc, 'user1', { title: `${W} Partial`, access: 'public' });
    await svc.db.query(`UPDATE items SET status = 'partial' WHERE id = $1`, [partial]);
    expect((await search(`id:${partial}`, 'user1')).total).toBe(1);
    expect((await search(`id:${partial}`, 'admin')).total).toBe(0);
    expect((await search(`id:${partial}`)).total).toBe(0);
    await svc.db.query('DELETE FROM items WHERE id = $1', [partial]);
  });

  it('anonymous callers see public items only', async () => {
    expect((await found(`tags:${W}`)).sort()).toEqual(['auth', 'public']);
  });
  it("a member sees own, the organization's, public, and their groups' items", async () => {
    expect((await found(`tags:${W}`, 'user1')).sort()).toEqual(['auth', 'org', 'private', 'public']);
    expect((await found(`tags:${W}`, 'publisher1')).sort()).toEqual(['auth', 'org', 'public', 'shared']);
  });
  it('an administrator with portal:admin:viewItems sees every item of the organization, not of others', async () => {
    expect((await found(`tags:${W}`, 'admin')).sort()).toEqual(['auth', 'org', 'private', 'public', 'shared']);
    expect((await found(`tags:${W}`, 'partner_admin')).sort()).toEqual(['auth', 'partner', 'public']);
  });
});

describe('search: q', () => {
  it('fields: title, owner, type, tags, id, typekeywords, orgid, group, access, contentstatus', async () => {
    expect(await found(`title:"${W} Org Park"`, 'admin')).toEqual(['org']);
    expect((await found(`owner:user1 AND tags:${W}`, 'admin')).sort()).toEqual(['auth', 'org', 'private']);
    expect(await found(`type:"Feature Service" AND tags:${W}`, 'admin')).toEqual(['org']);
    expect(await found(`id:${ids.public}`)).toEqual(['public']);
    expect(await found(`typekeywords:hiking AND tags:${W}`, 'admin')).toEqual(['shared']);
    expect(await found(`orgid:${svc.partnerOrgId} AND tags:${W}`, 'partner_admin')).toEqual(['partner']);
    expect(await found(`group:${groupId}`, 'publisher1')).toEqual(['shared']);
    expect(await found(`access:shared AND tags:${W}`, 'admin')).toEqual(['shared']);
    expect(await found(`access:private AND tags:${W}`, 'admin')).toEqual(['private']);
    expect((await found(`access:public AND tags:${W}`, 'admin')).sort()).toEqual(['auth', 'public']);
    expect(await found(`contentstatus:org_authoritative AND tags:${W}`, 'admin')).toEqual(['auth']);
  });

  it('ownerfolder: the items of one folder', async () => {
    const folder = await svc.post('content/users/user1/createFolder', { title: `F ${W}` }, tokens.user1);
    const filed = await insertItem(svc, 'user1', { title: `Filed ${randomUUID()}` });
    const moved = await svc.post(`content/users/user1/items/${filed}/move`, { folder: folder.folder.id }, tokens.user1);
    expect(moved.success, JSON.stringify(moved)).toBe(true);
    expect(await found(`ownerfolder:${folder.folder.id}`, 'user1')).toEqual([filed]);
    await svc.post(`content/users/user1/items/${filed}/move`, { folder: '/' }, tokens.user1);
    expect(await found(`ownerfolder:${folder.folder.id}`, 'user1')).toEqual([]);
    await svc.post(`content/users/user1/items/${filed}/delete`, {}, tokens.user1);
  });

  it("rest-js's share check: id: <id> AND group: <gid>, sent by POST", async () => {
    const res = await svc.post('search', { q: `id: ${ids.shared} AND group: ${groupId}`, num: '10', start: '1', sortField: 'title' }, tokens.publisher1);
    expect(res.total).toBe(1);
    expect(res.results[0].id).toBe(ids.shared);
    expect((await svc.post('search', { q: `id: ${ids.org} AND group: ${groupId}` }, tokens.publisher1)).total).toBe(0);
  });

  it('AND, OR, NOT, parentheses and free terms over title, tags, snippet, description', async () => {
    expect((await found(`tags:${W} AND (tags:water OR tags:parks)`, 'admin')).sort()).toEqual(['org', 'private', 'public']);
    expect((await found(`tags:${W} AND tags:water AND NOT owner:user1`, 'admin')).sort()).toEqual(['public']);
    expect((await found(`tags:${W} -tags:water`, 'admin')).sort()).toEqual(['auth', 'org', 'shared']);
    expect(await found(`${W} river`, 'admin')).toEqual(['public']);
    expect(await found(`"river snippet" ${W}`, 'admin')).toEqual(['public']);
    expect(await found(`${W} nothingmatches`, 'admin')).toEqual([]);
    expect(await found(`unknownfield:x`, 'admin')).toEqual([]);
  });

  it('created and modified ranges, inclusive and exclusive', async () => {
    expect((await found(`tags:${W} AND created:[1000 TO 3000]`, 'admin')).sort()).toEqual(['org', 'private', 'public']);
    expect((await found(`tags:${W} AND created:{1000 TO 3000}`, 'admin')).sort()).toEqual(['org']);
    expect((await found(`tags:${W} AND modified:[4000 TO *]`, 'admin')).sort()).toEqual(['shared']);
  });
});

describe('search: order and paging', () => {
  it('ranks authoritative items first without a sortField, then the most recently modified', async () => {
    expect(await found(`tags:${W}`, 'admin')).toEqual(['auth', 'shared', 'public', 'org', 'private']);
  });

  it('sorts by title, created, owner, numviews in either order', async () => {
    expect(await found(`tags:${W}`, 'admin', { sortField: 'title' })).toEqual(['auth', 'org', 'private', 'public', 'shared']);
    expect(await found(`tags:${W}`, 'admin', { sortField: 'created', sortOrder: 'desc' })).toEqual(['shared', 'public', 'org', 'private', 'auth']);
    expect((await found(`tags:${W}`, 'admin', { sortField: 'owner' }))[0]).toBe('shared');
    expect((await search(`tags:${W}`, 'admin', { sortField: 'size' })).error.details[0]).toMatch(/^'sortField'/);
  });

  it('pages with start and num (num at most 100) and nextStart -1 at the end', async () => {
    const p1 = await search(`tags:${W}`, 'admin', { num: '2', sortField: 'created' });
    expect(p1).toMatchObject({ query: `tags:${W}`, total: 5, start: 1, num: 2, nextStart: 3 });
    const p3 = await search(`tags:${W}`, 'admin', { num: '2', start: '5', sortField: 'created' });
    expect(p3).toMatchObject({ total: 5, start: 5, num: 1, nextStart: -1 });
    expect(p3.results[0].id).toBe(ids.shared);
    const big = await search('', 'admin', { num: '101' });
    expect(big.num).toBeLessThanOrEqual(100);
    const beyond = await search(`tags:${W}`, 'admin', { start: '50' });
    expect(beyond).toMatchObject({ total: 5, num: 0, nextStart: -1, results: [] });
  });
});

describe('search: free terms through the trigram index (migrations 013, 016)', () => {
  let t: Record<string, string>;
  beforeAll(async () => {
    const V = `${W}tv`;
    t = {
      title: await insertItem(svc, 'admin', { title: `${V} Harbour Cranes`, tags: [V] }),
      snippet: await insertItem(svc, 'admin', { title: `${V} one`, tags: [V], snippet: 'Ferry 50%_off timetable' }),
      description: await insertItem(svc, 'admin', { title: `${V} two`, tags: [V], description: 'Lighthouse <b>keepers</b> log' }),
      tags: await insertItem(svc, 'admin', { title: `${V} three`, tags: [V, 'Breakwater'] }),
    };
  });
  const ours = async (q: string) => {
    const body = await search(q, 'admin');
    expect(body.error, JSON.stringify(body.error)).toBeUndefined();
    return (body.results as { id: string }[])
      .map((r) => Object.entries(t).find(([, v]) => v === r.id)?.[0])
      .filter(Boolean)
      .sort();
  };

  it('matches a case-insensitive substring of any one field, as before', async () => {
    expect(await ours('HARBOUR')).toEqual(['title']);
    expect(await ours('bour ighthous')).toEqual([]); // two free terms: one item must match both
    expect(await ours('bour cra')).toEqual(['title']);
    expect(await ours('"bour cra"')).toEqual(['title']);
    expect(await ours('ighthous')).toEqual(['description']);
    expect(await ours('reakwat')).toEqual(['tags']);
    expect(await ours('timetabl*')).toEqual(['snippet']);
    // LIKE's pattern characters in a term are literal.
    expect(await ours('"50%_off"')).toEqual(['snippet']);
    expect(await ours('"50%xoff"')).toEqual([]);
    expect(await ours('NOT ighthous AND tags:' + `${W}tv`)).toEqual(['snippet', 'tags', 'title']);
  });

  it('never matches a term across two fields (the joined text only narrows the candidates)', async () => {
    // "Cranes" ends the title and the next field would begin after it: no field holds "cranes ferry".
    expect(await ours('"cranes ferry"')).toEqual([]);
    // One item whose title ends "Cranes" and whose snippet begins "Wharf": the joined text holds
    // "cranes\nwharf", but no field does, so a term with that line break still matches nothing.
    const span = await insertItem(svc, 'admin', { title: `${W}tw Quay Cranes`, tags: [`${W}tw`], snippet: 'Wharf pier' });
    const spans = async (q: string) => ((await search(q, 'admin')).results as { id: string }[]).filter((r) => r.id === span).length;
    expect(await spans('"quay cranes"')).toBe(1);
    expect(await spans('"cranes\nwharf"')).toBe(0);
    expect(await spans('"cranes wharf"')).toBe(0);
    // The tags joined with commas, as before: a term over two tags matches.
    expect(await ours(`"tv,breakwater"`)).toEqual(['tags']);
  });

  it('tags: a whole tag in any case, through the lower-cased tags index (migration 016)', async () => {
    expect(await ours('tags:BREAKWATER')).toEqual(['tags']);
    expect(await ours('tags:breakwat')).toEqual([]);
    const plan = await svc.db.tx(async (q) => {
      await q.query('SET LOCAL enable_seqscan = off');
      const rows = await q.query<Record<string, string>>(`EXPLAIN SELECT id FROM items i WHERE i.tags_lower @> ARRAY[lower('Breakwater')]`);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('items_tags_lower');
  });

  it('terms shorter than three letters still match (no trigram: the items are read)', async () => {
    expect(await ours('RY')).toEqual(['snippet']);
    expect(await ours('"<b>"')).toEqual(['description']);
  });

  it('the free-term condition can be answered by the trigram index', async () => {
    const plan = await svc.db.tx(async (q) => {
      await q.query('SET LOCAL enable_seqscan = off');
      const rows = await q.query<Record<string, string>>(`EXPLAIN SELECT id FROM items i WHERE i.search_text LIKE lower('%Harbour%')`);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('items_search_trgm');
  });

  it('readers name every column of the table but the search copies (migration 016)', async () => {
    const columns = await svc.db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'items'`,
    );
    expect(columns.map((c) => c.name).sort()).toEqual([...ITEM_COLUMNS, 'search_text', 'tags_lower'].sort());
  });

  it('the trigram index keeps no pending list (a search would read it whole: no autovacuum merges it when embedded)', async () => {
    const [index] = await svc.db.query<{ options: string[] | null }>(`SELECT reloptions AS options FROM pg_class WHERE oid = 'items_search_trgm'::regclass`);
    expect(index.options).toContain('fastupdate=off');
  });
});
