/**
 * Item reads (item, data, user content, user item), folders, and item changes: update, move,
 * delete, protect / unprotect — with who may, the field limits, and the events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { contentDisposition } from './read.ts';
import { eventsFor, get, getJson, insertItem, postMultipart } from './manage.test-support.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, who?: string) => svc.post(path, params, who ? tokens[who] : undefined);

describe('content/items/<id>', () => {
  it('answers the item record, counts views and never shows credentials', async () => {
    const id = await insertItem(svc, 'user1', { title: 'Viewed', access: 'org' });
    await svc.db.query(`UPDATE items SET service_credentials = '{"username":"svc","password":"secret"}' WHERE id = $1`, [id]);
    const first = await getJson(svc, `content/items/${id}`, {}, tokens.user1);
    expect(first).toMatchObject({ id, title: 'Viewed', owner: 'user1', access: 'org', numViews: 1, ownerFolder: null, protected: false });
    const second = await getJson(svc, `content/items/${id}`, {}, tokens.publisher1);
    expect(second.numViews).toBe(2);
    expect(JSON.stringify(second)).not.toContain('secret');
  });

  it('hides a private item from other members and anonymous callers, shows a public one to all', async () => {
    const id = await insertItem(svc, 'user1');
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.publisher1)).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    expect((await getJson(svc, `content/items/${id}`)).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.admin)).id).toBe(id);
    const pub = await insertItem(svc, 'user1', { access: 'public' });
    expect((await getJson(svc, `content/items/${pub}`)).id).toBe(pub);
    expect((await getJson(svc, `content/items/${pub}`, {}, tokens.partner_admin)).id).toBe(pub);
  });
});

describe('content/items/<id>/data', () => {
  it('answers JSON text as JSON, other text as text', async () => {
    const json = await insertItem(svc, 'user1', { text: '{"a":1}' });
    const res = await get(svc, `content/items/${json}/data`, {}, tokens.user1);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ a: 1 });
    const plain = await insertItem(svc, 'user1', { text: 'a,b\n1,2' });
    const res2 = await get(svc, `content/items/${plain}/data`, {}, tokens.user1);
    expect(res2.headers['content-type']).toMatch(/^text\/plain/);
    expect(res2.body).toBe('a,b\n1,2');
  });

  it('answers an empty body with HTTP 200 when the item has no data', async () => {
    const id = await insertItem(svc, 'user1');
    const res = await get(svc, `content/items/${id}/data`, {}, tokens.user1);
    expect(res.body).toBe('');
  });

  it('streams a file with its type and a safe attachment name', async () => {
    const id = await insertItem(svc, 'user1');
    const body = await postMultipart(
      svc,
      `content/users/user1/items/${id}/update`,
      { file: { filename: 'données 1.csv', content: Buffer.from('x,y\n1,2\n'), type: 'text/csv' } },
      tokens.user1,
    );
    expect(body).toMatchObject({ success: true, id });
    const res = await get(svc, `content/items/${id}/data`, {}, tokens.user1);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="donn_es 1.csv"; filename*=UTF-8''${encodeURIComponent('données 1.csv')}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('x,y\n1,2\n');
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).size).toBe(8);
  });

  it('never lets a file name break the Content-Disposition header', () => {
    expect(contentDisposition('a"b\r\nc/d\\e.csv')).toBe(`attachment; filename="a_b__c_d_e.csv"; filename*=UTF-8''a_b__c_d_e.csv`);
    expect(contentDisposition('')).toMatch(/^attachment; filename="data"/);
  });

  it('refuses the data of an item the caller cannot see', async () => {
    const id = await insertItem(svc, 'user1', { text: 'secret' });
    expect((await getJson(svc, `content/items/${id}/data`, {}, tokens.publisher1)).error.messageCode).toBe('CONT_0001');
  });
});

describe('folders and user content', () => {
  it('creates folders with unique titles per member (case-insensitive), and lists content by folder', async () => {
    const created = await post('content/users/publisher1/createFolder', { title: 'Maps' }, 'publisher1');
    expect(created).toMatchObject({ success: true, folder: { username: 'publisher1', title: 'Maps', id: expect.stringMatching(/^[a-f0-9]{32}$/) } });
    const dup = await post('content/users/publisher1/createFolder', { title: 'maps' }, 'publisher1');
    expect(dup.error).toMatchObject({ code: 400 });
    expect(dup.error.details[0]).toMatch(/^'title'/);
    // Another member may use the same title.
    expect((await post('content/users/user1/createFolder', { title: 'Maps' }, 'user1')).success).toBe(true);

    const folderId = created.folder.id;
    const inFolder = await insertItem(svc, 'publisher1', { folderId, title: 'In folder' });
    const atRoot = await insertItem(svc, 'publisher1', { title: 'At root' });
    const root = await getJson(svc, 'content/users/publisher1', {}, tokens.publisher1);
    expect(root).toMatchObject({ username: 'publisher1', start: 1, total: 1, nextStart: -1 });
    expect(root.items.map((i: { id: string }) => i.id)).toEqual([atRoot]);
    expect(root.folders).toEqual([{ username: 'publisher1', id: folderId, title: 'Maps', created: expect.any(Number) }]);
    expect(root).not.toHaveProperty('currentFolder');
    const folder = await getJson(svc, `content/users/publisher1/${folderId}`, {}, tokens.publisher1);
    expect(folder.currentFolder).toMatchObject({ id: folderId, title: 'Maps' });
    expect(folder.items.map((i: { id: string }) => i.id)).toEqual([inFolder]);
    expect(folder.items[0].ownerFolder).toBe(folderId);
  });

  it('checks the folder title: required, at most 255 characters, no path characters', async () => {
    expect((await post('content/users/user1/createFolder', { title: '' }, 'user1')).error.details[0]).toMatch(/^'title'/);
    expect((await post('content/users/user1/createFolder', { title: 'a'.repeat(255) }, 'user1')).success).toBe(true);
    expect((await post('content/users/user1/createFolder', { title: 'b'.repeat(256) }, 'user1')).error.details[0]).toMatch(/^'title' must be at most 255/);
    expect((await post('content/users/user1/createFolder', { title: '../x' }, 'user1')).error.details[0]).toMatch(/^'title'/);
  });

  it("lets only the owner or an administrator list or change a member's content", async () => {
    expect((await getJson(svc, 'content/users/user1', {}, tokens.publisher1)).error.code).toBe(403);
    expect((await getJson(svc, 'content/users/user1', {}, tokens.admin)).username).toBe('user1');
    // Another organization's member answers as a made-up name does (http/userPath.ts).
    expect((await getJson(svc, 'content/users/user1', {}, tokens.partner_admin)).error).toMatchObject({
      code: 400,
      message: "User 'user1' does not exist or is inaccessible.",
    });
    expect((await post('content/users/user1/createFolder', { title: 'Not yours' }, 'publisher1')).error.code).toBe(403);
    expect((await getJson(svc, 'content/users/user1')).error.code).toBe(499);
    expect((await getJson(svc, `content/users/user1/${'a'.repeat(32)}`)).error.code).toBe(499);
    expect((await getJson(svc, `content/users/user1/${'a'.repeat(32)}`, {}, tokens.user1)).error.message).toMatch(/Folder does not exist/);
    expect((await getJson(svc, 'content/users/user1/notAFolderId', {}, tokens.user1)).error).toMatchObject({ code: 400, messageCode: 'GWM_0002' });
  });

  it('pages user content with start/num and nextStart', async () => {
    const owner = 'viewer1';
    // viewer1 owns nothing it created; items inserted for paging only.
    for (let i = 0; i < 3; i++) await insertItem(svc, owner, { created: 1000 + i });
    const page1 = await getJson(svc, `content/users/${owner}`, { num: '2' }, tokens.viewer1);
    expect(page1).toMatchObject({ total: 3, start: 1, num: 2, nextStart: 3 });
    const page2 = await getJson(svc, `content/users/${owner}`, { num: '2', start: '3' }, tokens.viewer1);
    expect(page2).toMatchObject({ total: 3, start: 3, num: 1, nextStart: -1 });
  });

  it('refuses to delete a folder that holds items, deletes an empty one', async () => {
    const { folder } = await post('content/users/user1/createFolder', { title: 'Temp' }, 'user1');
    const id = await insertItem(svc, 'user1', { folderId: folder.id });
    const refused = await post(`content/users/user1/${folder.id}/delete`, {}, 'user1');
    expect(refused.error).toMatchObject({ code: 400, message: expect.stringMatching(/not empty/) });
    expect((await post(`content/users/user1/items/${id}/move`, { folder: '/' }, 'user1')).success).toBe(true);
    expect(await post(`content/users/user1/${folder.id}/delete`, {}, 'user1')).toEqual({
      success: true,
      folder: { username: 'user1', id: folder.id, title: 'Temp', created: expect.any(Number) },
    });
    expect((await post(`content/users/user1/${folder.id}/delete`, {}, 'user1')).error.code).toBe(400);
  });

  it('answers the user item with its sharing', async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    const body = await getJson(svc, `content/users/user1/items/${id}`, {}, tokens.user1);
    expect(body).toEqual({ item: expect.objectContaining({ id, access: 'org' }), sharing: { access: 'org', groups: [] }, infoFiles: [] });
    expect((await getJson(svc, `content/users/user1/items/${id}`, {}, tokens.publisher1)).error.code).toBe(403);
    expect((await getJson(svc, `content/users/publisher1/items/${id}`, {}, tokens.admin)).error.messageCode).toBe('CONT_0001');
  });
});

describe('update', () => {
  it('changes the fields sent, keeps the others, records an update event', async () => {
    const id = await insertItem(svc, 'user1', { title: 'Before', snippet: 'keep me', tags: ['a'] });
    const body = await post(`content/users/user1/items/${id}/update`, { title: 'After', tags: 'x, y', extent: '-10,-5,10,5', properties: '{"k":1}' }, 'user1');
    expect(body).toEqual({ success: true, id });
    const item = await getJson(svc, `content/items/${id}`, {}, tokens.user1);
    expect(item).toMatchObject({
      title: 'After',
      snippet: 'keep me',
      tags: ['x', 'y'],
      extent: [
        [-10, -5],
        [10, 5],
      ],
      properties: { k: 1 },
    });
    expect((await eventsFor(svc, id)).map((e) => e.operation)).toEqual(['update']);
  });

  it('takes the folder form of the path too', async () => {
    const { folder } = await post('content/users/user1/createFolder', { title: 'Upd' }, 'user1');
    const id = await insertItem(svc, 'user1', { folderId: folder.id });
    expect((await post(`content/users/user1/${folder.id}/items/${id}/update`, { snippet: 'via folder' }, 'user1')).success).toBe(true);
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).snippet).toBe('via folder');
  });

  it(`checks the snippet (${LIMITS.snippetChars} characters) and description (< 64 KB) limits; nothing is stored on a violation`, async () => {
    const id = await insertItem(svc, 'user1', { title: 'Limits' });
    expect((await post(`content/users/user1/items/${id}/update`, { snippet: 's'.repeat(LIMITS.snippetChars) }, 'user1')).success).toBe(true);
    const over = await post(`content/users/user1/items/${id}/update`, { snippet: 's'.repeat(LIMITS.snippetChars + 1), title: 'Changed' }, 'user1');
    expect(over.error.code).toBe(400);
    expect(over.error.details[0]).toMatch(/^'snippet'/);
    expect((await post(`content/users/user1/items/${id}/update`, { description: 'd'.repeat(LIMITS.descriptionBytes - 1) }, 'user1')).success).toBe(true);
    const big = await post(`content/users/user1/items/${id}/update`, { description: 'd'.repeat(LIMITS.descriptionBytes), title: 'Changed' }, 'user1');
    expect(big.error.details[0]).toMatch(/^'description'/);
    const item = await getJson(svc, `content/items/${id}`, {}, tokens.user1);
    expect(item.title).toBe('Limits');
    expect(item.snippet).toHaveLength(LIMITS.snippetChars);
    expect(item.description).toHaveLength(LIMITS.descriptionBytes - 1);
    expect((await post(`content/users/user1/items/${id}/update`, { extent: '10,0,0,5' }, 'user1')).error.details[0]).toMatch(/^'extent'/);
    expect((await post(`content/users/user1/items/${id}/update`, { properties: '{bad' }, 'user1')).error.details[0]).toMatch(/^'properties'/);
  });

  it('ignores empty fields unless clearEmptyFields=true, which clears them (never title)', async () => {
    const id = await insertItem(svc, 'user1', { snippet: 'snip', tags: ['t'] });
    await post(`content/users/user1/items/${id}/update`, { snippet: '', tags: '' }, 'user1');
    expect(await getJson(svc, `content/items/${id}`, {}, tokens.user1)).toMatchObject({ snippet: 'snip', tags: ['t'] });
    expect((await post(`content/users/user1/items/${id}/update`, { snippet: '', tags: '', clearEmptyFields: 'true' }, 'user1')).success).toBe(true);
    expect(await getJson(svc, `content/items/${id}`, {}, tokens.user1)).toMatchObject({ snippet: null, tags: [] });
    const noTitle = await post(`content/users/user1/items/${id}/update`, { title: '', clearEmptyFields: 'true' }, 'user1');
    expect(noTitle.error.details[0]).toMatch(/^'title'/);
  });

  it('replaces the data with text; text and file together are refused', async () => {
    const id = await insertItem(svc, 'user1', { text: '{"v":1}' });
    await post(`content/users/user1/items/${id}/update`, { text: '{"v":2}' }, 'user1');
    expect((await get(svc, `content/items/${id}/data`, {}, tokens.user1)).json()).toEqual({ v: 2 });
    const both = await postMultipart(
      svc,
      `content/users/user1/items/${id}/update`,
      { text: 'x', file: { filename: 'a.txt', content: Buffer.from('y') } },
      tokens.user1,
    );
    expect(both.error.details[0]).toMatch(/^'text'/);
  });

  it("lets only the owner or an administrator of the item's organization update it", async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    expect((await post(`content/users/user1/items/${id}/update`, { title: 'X' }, 'publisher1')).error.code).toBe(403);
    expect((await post(`content/users/user1/items/${id}/update`, { title: 'By admin' }, 'admin')).success).toBe(true);
    const pub = await insertItem(svc, 'user1', { access: 'public' });
    // From another organization the path's member is not visible: 400, as for a made-up name.
    expect((await post(`content/users/user1/items/${pub}/update`, { title: 'X' }, 'partner_admin')).error.code).toBe(400);
    // The path names the owner.
    expect((await post(`content/users/publisher1/items/${id}/update`, { title: 'X' }, 'admin')).error.messageCode).toBe('CONT_0001');
  });
});

describe('move, delete, protect', () => {
  it('moves to a folder (by id) and back to the root', async () => {
    const { folder } = await post('content/users/user1/createFolder', { title: 'Dest' }, 'user1');
    const id = await insertItem(svc, 'user1');
    expect(await post(`content/users/user1/items/${id}/move`, { folder: folder.id }, 'user1')).toEqual({
      success: true,
      itemId: id,
      owner: 'user1',
      folder: folder.id,
    });
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).ownerFolder).toBe(folder.id);
    expect(await post(`content/users/user1/items/${id}/move`, { folder: '/' }, 'user1')).toEqual({ success: true, itemId: id, owner: 'user1', folder: null });
    const bad = await post(`content/users/user1/items/${id}/move`, { folder: 'nope' }, 'user1');
    expect(bad.error.details[0]).toMatch(/^'folder'/);
    // Another member's folder is not a destination.
    const other = await post('content/users/publisher1/createFolder', { title: 'Theirs' }, 'publisher1');
    expect((await post(`content/users/user1/items/${id}/move`, { folder: other.folder.id }, 'user1')).error.details[0]).toMatch(/^'folder'/);
    expect((await eventsFor(svc, id)).map((e) => e.operation)).toEqual(['move', 'move']);
  });

  it('refuses to delete a protected item until unprotected; records the events', async () => {
    const id = await insertItem(svc, 'user1');
    expect(await post(`content/users/user1/items/${id}/protect`, {}, 'user1')).toEqual({ success: true });
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).protected).toBe(true);
    const refused = await post(`content/users/user1/items/${id}/delete`, {}, 'user1');
    expect(refused.error).toMatchObject({ code: 400, message: expect.stringMatching(/protection/) });
    expect(await post(`content/users/user1/items/${id}/unprotect`, {}, 'user1')).toEqual({ success: true });
    expect(await post(`content/users/user1/items/${id}/delete`, {}, 'user1')).toEqual({ success: true, itemId: id });
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).error.messageCode).toBe('CONT_0001');
    expect((await eventsFor(svc, id)).map((e) => e.operation)).toEqual(['protect', 'unprotect', 'delete']);
  });

  it('refuses to delete an authoritative item', async () => {
    for (const status of ['org_authoritative', 'public_authoritative']) {
      const id = await insertItem(svc, 'user1', { contentStatus: status });
      expect((await post(`content/users/user1/items/${id}/delete`, {}, 'admin')).error.message).toMatch(/Authoritative/);
    }
    const deprecated = await insertItem(svc, 'user1', { contentStatus: 'deprecated' });
    expect((await post(`content/users/user1/items/${deprecated}/delete`, {}, 'user1')).success).toBe(true);
  });

  it('lets only the owner or an administrator (deleteItems) delete; a GET is refused', async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    expect((await post(`content/users/user1/items/${id}/delete`, {}, 'publisher1')).error.code).toBe(403);
    expect((await post(`content/users/user1/items/${id}/protect`, {}, 'publisher1')).error.code).toBe(403);
    expect((await getJson(svc, `content/users/user1/items/${id}/delete`, {}, tokens.user1)).error.code).toBe(405);
    expect((await post(`content/users/user1/items/${id}/delete`, {}, 'admin')).success).toBe(true);
  });
});
