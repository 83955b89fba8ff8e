/**
 * User ids in paths (http/userPath.ts): the Maps SDK's PortalUser names the member by `id` in
 * `content/users/<x>/…` and `community/users/<x>/…`. Each operation answers the same by id as by
 * username; an id the caller may not see answers exactly as an unknown username does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) {
    tokens[u] = await svc.tokenFor(u);
    ids[u] = (await svc.post('community/self', {}, tokens[u])).id;
  }
});
afterAll(() => svc.close());

async function get(path: string, token?: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${new URLSearchParams({ f: 'json', ...(token ? { token } : {}) })}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('a member named by id', () => {
  it('community/users/<id> is the member’s record, as by username', async () => {
    const byId = await get(`community/users/${ids.user1}`, tokens.user1);
    expect(byId).toMatchObject({ username: 'user1', id: ids.user1 });
    expect(byId).toEqual(await get('community/users/user1', tokens.user1));
    // An administrator of the organization, by the member's id.
    expect(await get(`community/users/${ids.user1}`, tokens.admin)).toMatchObject({ username: 'user1', id: ids.user1 });
  });

  it('adds an item (urlencoded and multipart), lists it, tags it, and deletes it, by id', async () => {
    const added = await svc.post(`content/users/${ids.user1}/addItem`, { title: 'By id', type: 'Web Map', text: '{}', tags: 'idtag,Other' }, tokens.user1);
    expect(added).toMatchObject({ success: true, folder: null });
    const [row] = await svc.db.query<{ owner_id: string }>('SELECT owner_id FROM items WHERE id = $1', [added.id]);
    expect(row.owner_id).toBe(ids.user1);

    const file = await svc.postForm(
      `content/users/${ids.user1}/addItem`,
      { title: 'File by id', type: 'CSV', file: [new Blob(['a,b\n1,2\n']), 'points.csv'] },
      tokens.user1,
    );
    expect(file).toMatchObject({ success: true });

    const listing = await get(`content/users/${ids.user1}`, tokens.user1);
    expect(listing.username).toBe('user1');
    expect(listing.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([added.id, file.id]));
    expect(listing).toEqual(await get('content/users/user1', tokens.user1));

    const tags = await get(`community/users/${ids.user1}/tags`, tokens.user1);
    expect(tags.tags).toEqual(expect.arrayContaining([{ tag: 'idtag', count: 1 }]));
    expect(tags).toEqual(await get('community/users/user1/tags', tokens.user1));

    for (const id of [added.id, file.id])
      expect(await svc.post(`content/users/${ids.user1}/items/${id}/delete`, {}, tokens.user1)).toMatchObject({ success: true, itemId: id });
    expect(await svc.db.query('SELECT id FROM items WHERE id = ANY($1)', [[added.id, file.id]])).toEqual([]);
  });

  it('creates a folder and lists it, by id', async () => {
    const made = await svc.post(`content/users/${ids.user1}/createFolder`, { title: 'Folder by id' }, tokens.user1);
    expect(made).toMatchObject({ success: true, folder: { title: 'Folder by id', username: 'user1' } });
    const listing = await get(`content/users/${ids.user1}`, tokens.user1);
    expect(listing.folders.map((f: { id: string }) => f.id)).toContain(made.folder.id);
    const inFolder = await get(`content/users/${ids.user1}/${made.folder.id}`, tokens.user1);
    expect(inFolder.currentFolder).toMatchObject({ id: made.folder.id });
    expect(await svc.post(`content/users/${ids.user1}/${made.folder.id}/delete`, {}, tokens.user1)).toMatchObject({ success: true });
  });

  it('the member’s own id does not let them act for another member: adding to someone else’s id is refused as by username', async () => {
    const byId = await svc.post(`content/users/${ids.admin}/addItem`, { title: 'x', type: 'Web Map' }, tokens.user1);
    const byName = await svc.post('content/users/admin/addItem', { title: 'x', type: 'Web Map' }, tokens.user1);
    expect(byId.error.code).toBe(403);
    expect(byId).toEqual(byName);
    const upload = await svc.postForm(`content/users/${ids.admin}/addItem`, { title: 'x', type: 'CSV', file: [new Blob(['a\n1\n']), 'a.csv'] }, tokens.user1);
    expect(upload.error.code).toBe(403);
  });
});

describe('an id the caller may not see', () => {
  const unknown = '0123456789abcdef0123456789abcdef';

  /** The answer for `path` with the id, next to the answer with an id nobody has (the name in the message differs only). */
  async function sameAsUnknown(path: (x: string) => string, token?: string, post = false) {
    const ask = (x: string) => (post ? svc.post(path(x), { title: 'x', type: 'Web Map' }, token) : get(path(x), token));
    const other = await ask(ids.partner_admin);
    const none = await ask(unknown);
    expect(other.error).toBeDefined();
    expect(JSON.stringify(other).replaceAll(ids.partner_admin, unknown)).toBe(JSON.stringify(none));
    // Nothing of the other member leaks: not their username.
    expect(JSON.stringify(other)).not.toContain('partner_admin');
    return other;
  }

  it('another organization’s member id answers as an unknown user, on community and content paths', async () => {
    expect((await sameAsUnknown((x) => `community/users/${x}`, tokens.user1)).error.code).toBe(400);
    await sameAsUnknown((x) => `community/users/${x}`, tokens.admin);
    await sameAsUnknown((x) => `community/users/${x}/tags`, tokens.admin);
    await sameAsUnknown((x) => `content/users/${x}`, tokens.admin);
    await sameAsUnknown((x) => `content/users/${x}/addItem`, tokens.admin, true);
  });

  it('without a token an id resolves to nobody, even the member’s own', async () => {
    const anonymous = await get(`community/users/${ids.user1}`);
    expect(anonymous.error.code).toBe(400);
    expect(JSON.stringify(anonymous)).not.toContain('user1');
  });
});

describe('usernames never look like ids', () => {
  it('createUser refuses a username of 32 hexadecimal characters (any case)', async () => {
    for (const username of ['abcdefabcdefabcdefabcdefabcdef12', 'ABCDEFABCDEFABCDEFABCDEFABCDEF12']) {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/portaladmin/security/users/createUser',
        payload: {
          f: 'json',
          token: tokens.admin,
          username,
          password: 'Zebra-crossing-42',
          email: 'x@example.com',
          firstname: 'X',
          lastname: 'Y',
          role: 'org_user',
        },
      });
      const body = res.json();
      expect(body.error).toMatchObject({ code: 400 });
      expect(body.error.details.join(' ')).toContain('user id');
    }
  });
});
