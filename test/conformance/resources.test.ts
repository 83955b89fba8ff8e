/**
 * Item resources through Esri's client (addItemResource, updateItemResource, removeItemResource,
 * getItemResources, getItemResource) and plain fetch where rest-js has no call (archive=true, the
 * answer's status and type): one item walked through adding, reading, access, hostile archives,
 * reassigning, removing and deleting.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import {
  addItemResource,
  createItem,
  getItem,
  getItemResource,
  getItemResources,
  reassignItem,
  removeItem,
  removeItemResource,
  updateItemResource,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/shared/limits.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';
import { startService, type TestService } from '../support/service.ts';
import { zip } from '../support/zip.ts';

let svc: TestService;
let portal: string;
let user1: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;
let admin: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;
let token: string;
let itemId: string;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [user1, publisher, admin, partner] = await signInDemo(portal, 'user1', 'publisher1', 'admin', 'partner_admin');
  token = await svc.tokenFor('user1');
  const made = await createItem({ item: { title: 'Resourceful app', type: 'Web Mapping Application' }, text: '{"a":1}', authentication: user1 });
  itemId = made.id;
  await fetch(`${portal}/content/users/user1/items/${itemId}/share`, { method: 'POST', body: new URLSearchParams({ org: 'true', f: 'json', token }) });
});
afterAll(() => svc.close());

const resourceUrl = (path: string) => `${portal}/content/items/${itemId}/resources/${path}`;
const form = (fields: Record<string, string | Blob>, fileName?: string) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) body.append(k, v, fileName ?? k);
    else body.append(k, v);
  }
  body.append('f', 'json');
  body.append('token', token);
  return body;
};
const addRaw = async (fields: Record<string, string | Blob>, fileName?: string) =>
  (await fetch(`${portal}/content/users/user1/items/${itemId}/addResources`, { method: 'POST', body: form(fields, fileName) })).json();
/** Every file in the blob store (disk or S3), counted shard by shard. */
async function storedKeyCount(): Promise<number> {
  const blobs = svc.app.portal.blobs;
  let n = 0;
  for (const shard of await blobs.shards()) {
    let after: string | undefined;
    do {
      const page = await blobs.listOlder(shard, Date.now() + 60_000, 1000, after);
      n += page.keys.length;
      after = page.next;
    } while (after);
  }
  return n;
}
const listed = async (auth: ArcGISIdentityManager = user1) =>
  ((await getItemResources(itemId, { authentication: auth })).resources ?? []).map((r: any) => r.resource as string).sort();

describe('item resources', () => {
  const binary = randomBytes(300_000);

  it('adds text and binary resources, lists them with sizes, counts them in the item size, and reads them back byte for byte', async () => {
    await expect(
      addItemResource({ id: itemId, owner: 'user1', content: '{"theme":"dark"}', name: 'settings.json', prefix: 'config', authentication: user1 }),
    ).resolves.toMatchObject({ success: true, itemId });
    await expect(
      addItemResource({
        id: itemId,
        owner: 'user1',
        resource: new Blob([new Uint8Array(binary)]),
        name: 'blob.bin',
        prefix: 'data/raw',
        authentication: user1,
      }),
    ).resolves.toMatchObject({ success: true });

    const page = await getItemResources(itemId, { authentication: user1 });
    expect(page).toMatchObject({ total: 2, start: 1, num: 2, nextStart: -1 });
    const bin = (page.resources ?? []).find((r: any) => r.resource === 'data/raw/blob.bin');
    expect(bin).toMatchObject({ size: binary.length, access: 'inherit' });
    expect(bin?.created).toBeGreaterThan(0);
    // The item's size is its data (7 bytes of JSON) and its resources together.
    expect((await getItem(itemId, { authentication: user1 })).size).toBe(7 + 16 + binary.length);

    const back = (await getItemResource(itemId, { fileName: 'data/raw/blob.bin', readAs: 'arrayBuffer', authentication: user1 })) as ArrayBuffer;
    expect(Buffer.from(back).equals(binary)).toBe(true);
    await expect(getItemResource(itemId, { fileName: 'config/settings.json', readAs: 'json', authentication: user1 })).resolves.toEqual({ theme: 'dark' });
    const res = await fetch(`${resourceUrl('config/settings.json')}?token=${token}`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);

    // Paged: one at a time.
    const first = await getItemResources(itemId, { params: { num: 1 }, authentication: user1 });
    expect(first).toMatchObject({ total: 2, num: 1, nextStart: 2 });
  });

  it('updates a resource in place and refuses adding one twice', async () => {
    await expect(
      updateItemResource({ id: itemId, owner: 'user1', content: '{"theme":"light"}', name: 'settings.json', prefix: 'config', authentication: user1 }),
    ).resolves.toMatchObject({ success: true });
    await expect(getItemResource(itemId, { fileName: 'config/settings.json', readAs: 'json', authentication: user1 })).resolves.toEqual({ theme: 'light' });
    const twice = await rejection(
      addItemResource({ id: itemId, owner: 'user1', content: '{}', name: 'settings.json', prefix: 'config', authentication: user1 }),
    );
    expect(twice.message).toMatch(/already/);
    const missing = await rejection(updateItemResource({ id: itemId, owner: 'user1', content: '{}', name: 'nothing.json', authentication: user1 }));
    expect(missing.response.error.code).toBe(404);
  });

  it('answers a missing resource with an HTTP 404 and the JSON error envelope, which rest-js rejects', async () => {
    const err = await rejection(getItemResource(itemId, { fileName: 'not/there.csv', authentication: user1 }));
    expect(err.name).toBe('ArcGISRequestError');
    expect(err.code).toBe('HTTP 404 Not Found');
    const res = await fetch(`${resourceUrl('not/there.csv')}?token=${token}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).error).toMatchObject({ code: 404 });
    // An item that is not there (or not visible) answers the same way.
    expect((await fetch(`${portal}/content/items/${'0'.repeat(32)}/resources/a.txt`)).status).toBe(404);
  });

  it('keeps a private resource to the owner and administrators; another organization reaches nothing', async () => {
    await addItemResource({ id: itemId, owner: 'user1', content: 'secret', name: 'keys.txt', private: true, authentication: user1 });
    // publisher1 sees the item (shared with the organization) and its other resources, not the private one.
    expect(await listed(publisher)).toEqual(['config/settings.json', 'data/raw/blob.bin']);
    const refused = await rejection(getItemResource(itemId, { fileName: 'keys.txt', readAs: 'text', authentication: publisher }));
    expect(refused.code).toBe('HTTP 403 Forbidden');
    await expect(getItemResource(itemId, { fileName: 'config/settings.json', readAs: 'json', authentication: publisher })).resolves.toEqual({ theme: 'light' });
    // The administrator reads it.
    await expect(getItemResource(itemId, { fileName: 'keys.txt', readAs: 'text', authentication: admin })).resolves.toBe('secret');
    expect(await listed(admin)).toContain('keys.txt');
    // Nor may another member change them.
    const change = await rejection(addItemResource({ id: itemId, owner: 'user1', content: 'x', name: 'planted.txt', authentication: publisher }));
    expect(change.response.error.code).toBe(403);
    // The Partner Organization's administrator: not the item, not its resources, no change.
    expect((await rejection(getItemResource(itemId, { fileName: 'config/settings.json', authentication: partner }))).code).toBe('HTTP 404 Not Found');
    expect((await rejection(getItemResources(itemId, { authentication: partner }))).response.error.code).toBe(400);
    const planted = await rejection(addItemResource({ id: itemId, owner: 'user1', content: 'x', name: 'planted.txt', authentication: partner }));
    expect(planted.response.error.code).toBeGreaterThanOrEqual(400);
    expect(await listed(admin)).not.toContain('planted.txt');
    // Anonymous: the item is not public.
    expect((await fetch(resourceUrl('config/settings.json'))).status).toBe(404);
  });

  it('unpacks a zip with archive=true keeping its folders, and refuses hostile archives keeping nothing of them', async () => {
    const archive = zip([
      { name: 'site/', data: Buffer.alloc(0) },
      { name: 'site/index.html', data: Buffer.from('<p>hi</p>'), deflate: true },
      { name: 'site/img/dot.bin', data: Buffer.from([1, 2, 3]) },
      { name: 'readme.txt', data: Buffer.from('read me') },
    ]);
    const ok = await addRaw({ archive: 'true', resourcesPrefix: 'bundle', file: new Blob([new Uint8Array(archive)]) }, 'bundle.zip');
    expect(ok).toMatchObject({ success: true });
    expect(await listed()).toEqual(expect.arrayContaining(['bundle/readme.txt', 'bundle/site/img/dot.bin', 'bundle/site/index.html']));
    await expect(getItemResource(itemId, { fileName: 'bundle/site/index.html', readAs: 'text', authentication: user1 })).resolves.toBe('<p>hi</p>');
    const before = await listed();
    const storedBefore = await storedKeyCount();

    // Zip slip: an entry that climbs out.
    const slip = await addRaw({ archive: 'true', file: new Blob([new Uint8Array(zip([{ name: '../../evil.txt', data: Buffer.from('x') }]))]) }, 'slip.zip');
    expect(slip.error).toMatchObject({ code: 400 });
    // A bomb: 20 MB of zeros deflated to a few kilobytes, far over the ratio.
    const zeros = Buffer.alloc(20 * 1024 * 1024);
    expect(deflateRawSync(zeros).length * 100).toBeLessThan(zeros.length);
    const bomb = await addRaw({ archive: 'true', file: new Blob([new Uint8Array(zip([{ name: 'zeros.bin', data: zeros, deflate: true }]))]) }, 'bomb.zip');
    expect(bomb.error).toMatchObject({ code: 400 });
    expect(bomb.error.details.join(' ')).toMatch(/compressed more than|inflates/);
    // Headers that lie about the size are caught on the bytes inflated.
    const forged = zip([{ name: 'small.bin', data: Buffer.alloc(2 * 1024 * 1024, 7), deflate: true, declaredSize: 100 }]);
    expect((await addRaw({ archive: 'true', file: new Blob([new Uint8Array(forged)]) }, 'forged.zip')).error).toMatchObject({ code: 400 });
    // Not a zip at all.
    expect((await addRaw({ archive: 'true', file: new Blob(['plain text']) }, 'plain.zip')).error).toMatchObject({ code: 400 });
    expect(await listed()).toEqual(before);
    // Nothing of the refused archives stays in the store.
    expect(await storedKeyCount()).toBe(storedBefore);
  });

  it('refuses a resource path that leaves the item, and states the per-file limit', async () => {
    const bad = await rejection(addItemResource({ id: itemId, owner: 'user1', content: 'x', name: '../../x.txt', authentication: user1 }));
    expect(bad.response.error.code).toBe(400);
    expect(LIMITS.resourceBytes).toBe(50 * 1024 * 1024);
  });

  it('records resource changes in the item history', async () => {
    const rows = await svc.db.query<{ data: any }>(
      "SELECT data FROM events WHERE subject_id = $1 AND source = 'item' AND data->'resources' IS NOT NULL ORDER BY created",
      [itemId],
    );
    const changes = rows.map((r) => r.data.resources);
    expect(changes[0]).toMatchObject({ added: ['config/settings.json'] });
    expect(changes).toContainEqual(expect.objectContaining({ updated: ['config/settings.json'] }));
    expect(changes).toContainEqual(expect.objectContaining({ access: 'private', added: ['keys.txt'] }));
  });

  it('goes with the item when it is reassigned: the new owner reads and removes them', async () => {
    await reassignItem({ id: itemId, currentOwner: 'user1', targetUsername: 'publisher1', authentication: admin });
    expect(await listed(publisher)).toContain('config/settings.json');
    // The private resource is now the new owner's to read.
    await expect(getItemResource(itemId, { fileName: 'keys.txt', readAs: 'text', authentication: publisher })).resolves.toBe('secret');
    await expect(removeItemResource({ id: itemId, owner: 'publisher1', resource: 'keys.txt', authentication: publisher })).resolves.toMatchObject({
      success: true,
    });
    expect(await listed(publisher)).not.toContain('keys.txt');
    expect(
      (await rejection(removeItemResource({ id: itemId, owner: 'publisher1', resource: 'keys.txt', authentication: publisher }))).response.error.code,
    ).toBe(404);
  });

  it('deleteAll removes every resource, the item size drops back, and deleting the item for good removes their files', async () => {
    const keys = (await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_resources WHERE item_id = $1', [itemId])).map((r) => r.blob_key);
    expect(keys.length).toBeGreaterThan(0);
    await expect(removeItemResource({ id: itemId, owner: 'publisher1', deleteAll: true, authentication: publisher })).resolves.toMatchObject({ success: true });
    expect((await getItemResources(itemId, { authentication: publisher })).total).toBe(0);
    expect((await getItem(itemId, { authentication: publisher })).size).toBe(7);
    for (const key of keys) await expect(svc.app.portal.blobs.open(key)).rejects.toThrow();

    await addItemResource({ id: itemId, owner: 'publisher1', content: 'bye', name: 'last.txt', authentication: publisher });
    const [{ blob_key }] = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_resources WHERE item_id = $1', [itemId]);
    // For good: a plain delete keeps the resources' files for the recycle bin.
    await removeItem({ id: itemId, owner: 'publisher1', authentication: publisher, params: { permanentDelete: true } });
    await expect(svc.app.portal.blobs.open(blob_key)).rejects.toThrow();
  });
});

describe('addItem with a client-supplied id (docs/rest-operations.md)', () => {
  it('refuses an id that is not 32 letters and digits, such as a solution.js placeholder, and creates nothing', async () => {
    const answer = await (
      await fetch(`${portal}/content/users/user1/addItem`, {
        method: 'POST',
        body: new URLSearchParams({ id: `{{${'a'.repeat(32)}.itemId}}`, title: 'Placeholder', type: 'CSV', text: 'a,b', f: 'json', token }),
      })
    ).json();
    expect(answer.error).toMatchObject({ code: 400, message: 'Invalid or missing input parameters.', fieldErrors: { id: 'must be 32 letters and digits' } });
    expect(await svc.db.query("SELECT 1 FROM items WHERE title = 'Placeholder'")).toEqual([]);
  });
});
