/**
 * addItem (`content/users/<u>[/<folderId>]/addItem`): who may add, the content modes (file, text,
 * url, dataUrl, multipart start), field validation, supplied ids, Data Store content, credentials,
 * the event, relationships made in the same call (and the item removed when they fail), and the
 * 50 MB cap on chunked bodies.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { onDisk } from '../../store/blobs.ts';
import { zip } from '../../../../test/support/zip.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function post(path: string, params: Record<string, string>, token?: string) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** A multipart/form-data POST built by the platform's FormData. */
async function postForm(path: string, fields: Record<string, string | Blob | [Blob, string]>, token?: string, headers: Record<string, string> = {}) {
  const fd = new FormData();
  fd.set('f', 'json');
  if (token) fd.set('token', token);
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) fd.set(k, v[0], v[1]);
    else fd.set(k, v);
  }
  const r = new Request('http://x/', { method: 'POST', body: fd });
  const payload = Buffer.from(await r.arrayBuffer());
  const res = await svc.app.inject({
    method: 'POST',
    url: `/sharing/rest/${path}`,
    payload,
    headers: { 'content-type': r.headers.get('content-type')!, ...headers },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const CARD = '<?xml version="1.0" encoding="utf-8"?><ESRI_ItemInformation Culture="en-US"><name>pkg</name><title>Package title</title></ESRI_ItemInformation>';

async function itemRow(id: string) {
  const [row] = await svc.db.query<Record<string, any>>('SELECT * FROM items WHERE id = $1', [id]);
  return row;
}

const add = (params: Record<string, string>, user = 'user1', folder?: string) =>
  post(`content/users/${user}/${folder ? `${folder}/` : ''}addItem`, params, tokens[user]);

describe('who may add', () => {
  it('the named user (any letter case) adds to their root folder; the item is private and the add event written', async () => {
    const body = await post('content/users/USER1/addItem', { title: 'Notes', type: 'Web Map', text: '{"a":1}', tags: 'a,b' }, tokens.user1);
    expect(body).toEqual({ success: true, id: expect.stringMatching(/^[a-f0-9]{32}$/), folder: null });
    const row = await itemRow(body.id);
    expect(row).toMatchObject({
      title: 'Notes',
      type: 'Web Map',
      tags: ['a', 'b'],
      access: 'private',
      data_kind: 'text',
      data_text: '{"a":1}',
      status: 'completed',
      folder_id: null,
    });
    const events = await svc.db.query('SELECT source, operation, username FROM events WHERE subject_id = $1', [body.id]);
    expect(events).toEqual([{ source: 'item', operation: 'add', username: 'user1' }]);
  });

  it('another user, even an administrator, cannot add to someone else', async () => {
    const body = await post('content/users/user1/addItem', { title: 'x', type: 'Web Map' }, tokens.admin);
    expect(body.error.code).toBe(403);
  });

  it('a member without portal:user:createItem is refused', async () => {
    const body = await add({ title: 'x', type: 'Web Map' }, 'viewer1');
    expect(body.error).toMatchObject({ code: 403 });
    expect(body.error.details.join(' ')).toContain('portal:user:createItem');
  });

  it('without a token: 499', async () => {
    expect((await post('content/users/user1/addItem', { title: 'x', type: 'Web Map' })).error.code).toBe(499);
  });

  it('adds into one of the user’s folders (by id), answering the folder; a folder of someone else is refused', async () => {
    const now = Date.now();
    const [u1] = await svc.db.query<{ id: string; org_id: string }>(`SELECT id, org_id FROM users WHERE username = 'user1'`);
    const [p1] = await svc.db.query<{ id: string; org_id: string }>(`SELECT id, org_id FROM users WHERE username = 'publisher1'`);
    await svc.db.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, $5)', [
      'f'.repeat(32),
      u1.org_id,
      u1.id,
      'Mine',
      now,
    ]);
    await svc.db.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, $5)', [
      'e'.repeat(32),
      p1.org_id,
      p1.id,
      'Theirs',
      now,
    ]);
    const body = await add({ title: 'In folder', type: 'Web Map' }, 'user1', 'f'.repeat(32));
    expect(body).toEqual({ success: true, id: expect.any(String), folder: 'f'.repeat(32) });
    expect((await itemRow(body.id)).folder_id).toBe('f'.repeat(32));
    const refused = await add({ title: 'In folder', type: 'Web Map' }, 'user1', 'e'.repeat(32));
    expect(refused.error.code).toBe(400);
    expect(refused.error.message).toContain('Folder');
  });
});

describe('fields', () => {
  it('title and type are required, with the real message', async () => {
    for (const params of [{ type: 'Web Map' }, { title: 'x' }, {}] as Record<string, string>[]) {
      const body = await add(params);
      expect(body.error).toMatchObject({ code: 400, message: "'type' and 'title' property required." });
    }
  });

  it('snippet: 2048 characters pass, 2049 are refused naming snippet, and nothing is stored', async () => {
    const ok = await add({ title: 'S', type: 'Web Map', snippet: 'x'.repeat(LIMITS.snippetChars) });
    expect(ok.success).toBe(true);
    const before = (await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n;
    const bad = await add({ title: 'S', type: 'Web Map', snippet: 'x'.repeat(LIMITS.snippetChars + 1) });
    expect(bad.error.code).toBe(400);
    expect(bad.error.details[0]).toContain("'snippet'");
    expect((await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n).toBe(before);
  });

  it('description: below 64 KB passes, 64 KB is refused', async () => {
    expect((await add({ title: 'D', type: 'Web Map', description: 'x'.repeat(LIMITS.descriptionBytes - 1) })).success).toBe(true);
    expect((await add({ title: 'D', type: 'Web Map', description: 'x'.repeat(LIMITS.descriptionBytes) })).error.details[0]).toContain("'description'");
  });

  it('extent, properties, typeKeywords and culture are stored; a bad extent names the parameter', async () => {
    const body = await add({ title: 'E', type: 'Web Map', extent: '-10,-5,10,5', properties: '{"v":"1"}', typeKeywords: 'k1,k2', culture: 'en-us' });
    expect(await itemRow(body.id)).toMatchObject({
      extent: [
        [-10, -5],
        [10, 5],
      ],
      properties: { v: '1' },
      type_keywords: ['k1', 'k2'],
      culture: 'en-us',
    });
    expect((await add({ title: 'E', type: 'Web Map', extent: '1,2,3' })).error.details[0]).toContain("'extent'");
  });

  it('a supplied id: 32 letters and digits are used; 31 or 33 or symbols are refused; an existing id is refused naming id', async () => {
    const id = 'A1'.repeat(16);
    expect(await add({ title: 'Id', type: 'Web Map', id })).toMatchObject({ success: true, id });
    for (const bad of ['a'.repeat(31), 'a'.repeat(33), `${'a'.repeat(31)}-`])
      expect((await add({ title: 'Id', type: 'Web Map', id: bad })).error.details[0]).toContain("'id'");
    const taken = await add({ title: 'Again', type: 'Web Map', id });
    expect(taken.error).toMatchObject({ code: 400, message: `The item id ${id} already exists.` });
    expect(taken.error.details[0]).toContain("'id'");
  });

  it('service credentials are stored and never returned', async () => {
    const body = await add({
      title: 'Secured',
      type: 'Map Service',
      url: 'https://example.com/arcgis/rest/services/x/MapServer',
      serviceUsername: 'svc',
      servicePassword: 's3cret',
    });
    expect(JSON.stringify(body)).not.toContain('s3cret');
    expect((await itemRow(body.id)).service_credentials).toEqual({ username: 'svc', password: 's3cret' });
  });

  it('a url item stores its url', async () => {
    const body = await add({ title: 'Service', type: 'Feature Service', url: 'https://example.com/FeatureServer' });
    expect(await itemRow(body.id)).toMatchObject({ url: 'https://example.com/FeatureServer', data_kind: 'none' });
  });

  it('a Data Store item’s text must have the data store shape', async () => {
    const good = {
      type: 'cloudStore',
      info: {
        isManaged: false,
        connectionString: { accessKeyId: 'k', secretAccessKey: 's', region: 'us-east-1', defaultEndpointProtocol: 'https', credentialType: 'accesskey' },
        objectStore: 'bucket/folder',
      },
      path: '/cloudStores/store1',
      provider: 'amazon',
    };
    expect((await add({ title: 'Store', type: 'Data Store', text: JSON.stringify(good) })).success).toBe(true);
    const noProvider = { ...good, provider: undefined };
    const bad = await add({ title: 'Store', type: 'Data Store', text: JSON.stringify(noProvider) });
    expect(bad.error.code).toBe(400);
    expect(bad.error.details.join(' ')).toContain("'text.provider'");
    const badInfo = await add({ title: 'Store', type: 'Data Store', text: JSON.stringify({ ...good, info: { ...good.info, isManaged: 'no' } }) });
    expect(badInfo.error.details.join(' ')).toContain("'text.info.isManaged'");
    expect((await add({ title: 'Store', type: 'Data Store', text: 'not json' })).error.details[0]).toContain("'text'");
    // The enterprise geodatabase and folder shapes of a data item (Server Administrator API, "Data item").
    const egdb = {
      type: 'egdb',
      path: '/enterpriseDatabases/parcels',
      info: { dataStoreConnectionType: 'shared', isManaged: false, connectionString: 'SERVER=127.0.0.1;DBCLIENT=postgresql;DATABASE=gis;USER=sde' },
    };
    const folder = { type: 'folder', path: '/fileShares/imagery', info: { dataStoreConnectionType: 'shared', path: '/data/imagery' } };
    for (const shape of [egdb, folder, { ...egdb, info: { ...egdb.info, dataStoreConnectionType: undefined } }]) {
      expect(await add({ title: 'Store', type: 'Data Store', text: JSON.stringify(shape) }), JSON.stringify(shape)).toMatchObject({ success: true });
    }
    const egdbObject = await add({ title: 'Store', type: 'Data Store', text: JSON.stringify({ ...egdb, info: { connectionString: { user: 'sde' } } }) });
    expect(egdbObject.error.details).toEqual(["'text.info.connectionString' must be the database connection string (text such as SERVER=…;DATABASE=…;USER=…)"]);
    const folderNoPath = await add({
      title: 'Store',
      type: 'Data Store',
      text: JSON.stringify({ ...folder, info: { dataStoreConnectionType: 'everywhere' } }),
    });
    expect(folderNoPath.error.details).toEqual([
      "'text.info.path' must be the path of the shared folder",
      "'text.info.dataStoreConnectionType' must be 'shared', 'replicated' or 'serverOnly'",
    ]);
    expect((await add({ title: 'Store', type: 'Data Store', text: '[1]' })).error.details).toEqual(["'text' must be a JSON object (type, path, info)"]);
    // Other types take any text.
    expect((await add({ title: 'Other', type: 'Web Map', text: 'not json' })).success).toBe(true);
  });

  it('a service proxy needs a url', async () => {
    expect((await add({ title: 'P', type: 'Map Service', service: '{"hitsPerInterval":5}' })).error.details[0]).toContain("'service'");
    const ok = await add({ title: 'P', type: 'Map Service', url: 'https://example.com/MapServer', service: '{"hitsPerInterval":5}' });
    expect(ok.proxyUrl).toMatch(new RegExp(`/sharing/rest/content/items/${ok.id}/proxy$`));
    expect((await itemRow(ok.id)).service_proxy).toEqual({ hitsPerInterval: 5, intervalSeconds: 60, referrers: [] });
  });
});

describe('files', () => {
  it('an uploaded file is moved into the blob store; size, name and type recorded', async () => {
    const body = await postForm(
      'content/users/user1/addItem',
      { title: 'CSV', type: 'CSV', file: [new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'data.csv'] },
      tokens.user1,
    );
    expect(body.success).toBe(true);
    const row = await itemRow(body.id);
    expect(row).toMatchObject({ data_kind: 'file', size: 8, name: 'data.csv', data_mime: 'text/csv' });
    expect(existsSync(onDisk(svc.app.portal.blobs).localPath(row.data_blob))).toBe(true);
  });

  it('file and text together are refused', async () => {
    const body = await postForm('content/users/user1/addItem', { title: 'CSV', type: 'CSV', text: 'x', file: [new Blob(['a']), 'a.csv'] }, tokens.user1);
    expect(body.error.details[0]).toContain("'text'");
  });

  it('a chunked body (no Content-Length) is capped at 50 MB; below the cap it is stored', async () => {
    const url = await svc.listen();
    const send = async (bytes: number) => {
      const fd = new FormData();
      fd.set('f', 'json');
      fd.set('token', tokens.user1);
      fd.set('title', 'Chunked');
      fd.set('type', 'CSV');
      fd.set('file', new Blob([Buffer.alloc(bytes, 97)]), 'big.csv');
      const r = new Request('http://x/', { method: 'POST', body: fd });
      const ct = r.headers.get('content-type')!;
      const reader = r.body!.getReader();
      // A streamed body: fetch sends it with Transfer-Encoding: chunked.
      const stream = new ReadableStream({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
      });
      const res = await fetch(`${url}/content/users/user1/addItem`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': ct },
        duplex: 'half',
      } as RequestInit);
      return res.json();
    };
    const ok = await send(LIMITS.chunkedUploadBytes);
    expect(ok.success).toBe(true);
    expect((await itemRow(ok.id)).size).toBe(LIMITS.chunkedUploadBytes);
    const big = await send(LIMITS.chunkedUploadBytes + 1);
    expect(big.error.code).toBe(413);
    expect(big.error.message).toContain('chunked transfer encoding');
    // With a Content-Length the same size streams in without the cap.
    const fd = new FormData();
    for (const [k, v] of Object.entries({ f: 'json', token: tokens.user1, title: 'Sized', type: 'CSV' })) fd.set(k, v);
    fd.set('file', new Blob([Buffer.alloc(LIMITS.chunkedUploadBytes + 1, 98)]), 'big.csv');
    const sized = await (await fetch(`${url}/content/users/user1/addItem`, { method: 'POST', body: fd })).json();
    expect(sized.success).toBe(true);
    expect((await itemRow(sized.id)).size).toBe(LIMITS.chunkedUploadBytes + 1);
  }, 60_000);
});

describe('async dataUrl and multipart start', () => {
  it('dataUrl without async=true is refused naming async; with async the answer says processing and a job is queued', async () => {
    expect((await add({ title: 'D', type: 'CSV', dataUrl: 'http://127.0.0.1:1/x.csv' })).error.details[0]).toContain("'async'");
    expect((await add({ title: 'D', type: 'CSV', dataUrl: 'ftp://example.com/x.csv', async: 'true' })).error.details[0]).toContain("'dataUrl'");
    const body = await add({ title: 'D', type: 'CSV', dataUrl: 'http://127.0.0.1:1/x.csv', async: 'true' });
    expect(body).toEqual({ success: true, id: expect.any(String), folder: null, status: 'processing', statusMessage: expect.any(String), itemId: body.id });
    expect(await itemRow(body.id)).toMatchObject({ status: 'processing', name: 'x.csv' });
    expect(await svc.db.query('SELECT kind, state FROM item_jobs WHERE item_id = $1', [body.id])).toEqual([{ kind: 'dataUrl', state: 'queued' }]);
  });

  it('multipart=true needs a filename and ignores every other parameter; the item is partial', async () => {
    expect((await add({ multipart: 'true' })).error.details[0]).toContain("'filename'");
    const body = await add({ multipart: 'true', filename: 'big.zip', title: 'ignored', snippet: 'x'.repeat(5000) });
    expect(body).toEqual({ success: true, id: expect.any(String), folder: null });
    expect(await itemRow(body.id)).toMatchObject({ status: 'partial', name: 'big.zip', title: '', snippet: null });
  });
});

describe('relationship in the same call', () => {
  it('originItemId: the new item is the destination and inherits the origin’s sharing', async () => {
    const map = await add({ title: 'Map', type: 'Web Map' });
    const [g] = await svc.db.query<{ id: string }>(`SELECT id FROM groups LIMIT 1`);
    let groupId = g?.id;
    if (!groupId) {
      const created = await post('community/createGroup', { title: `G ${Date.now()}`, access: 'private' }, tokens.user1);
      groupId = created.group.id;
    }
    await svc.db.query(`UPDATE items SET access = 'org' WHERE id = $1`, [map.id]);
    await svc.db.query('INSERT INTO item_shares (item_id, group_id, shared) VALUES ($1, $2, 1)', [map.id, groupId]);
    const svcItem = await add({
      title: 'Layer',
      type: 'Feature Service',
      url: 'https://example.com/FeatureServer',
      relationshipType: 'Map2Service',
      originItemId: map.id,
    });
    expect(svcItem.success).toBe(true);
    expect(await svc.db.query('SELECT type, origin_id, destination_id FROM relationships WHERE destination_id = $1', [svcItem.id])).toEqual([
      { type: 'Map2Service', origin_id: map.id, destination_id: svcItem.id },
    ]);
    expect((await itemRow(svcItem.id)).access).toBe('org');
    expect(await svc.db.query('SELECT group_id FROM item_shares WHERE item_id = $1', [svcItem.id])).toEqual([{ group_id: groupId }]);
  });

  it('destinationItemId (relationshipTypes spelling): the new item is the origin', async () => {
    const layer = await add({ title: 'Layer', type: 'Feature Service', url: 'https://example.com/FeatureServer' });
    const map = await add({ title: 'Map', type: 'Web Map', relationshipTypes: 'Map2Service', destinationItemId: layer.id });
    expect(map.success).toBe(true);
    expect(await svc.db.query('SELECT origin_id FROM relationships WHERE destination_id = $1', [layer.id])).toEqual([{ origin_id: map.id }]);
  });

  it('both origin and destination: 400 and nothing created', async () => {
    const before = (await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n;
    const body = await add({
      title: 'Both',
      type: 'Web Map',
      relationshipType: 'Map2Service',
      originItemId: 'a'.repeat(32),
      destinationItemId: 'b'.repeat(32),
    });
    expect(body.error.code).toBe(400);
    expect((await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n).toBe(before);
  });

  it('a failing relationship (unknown type, invalid pair, missing or invisible item) removes the new item and its file', async () => {
    const map = await add({ title: 'Map', type: 'Web Map' });
    const privateOfOther = await add({ title: 'Theirs', type: 'Web Map' }, 'publisher1');
    const cases: [Record<string, string>, number][] = [
      [{ relationshipType: 'NoSuchType', originItemId: map.id }, 400],
      [{ relationshipType: 'Map2Service', destinationItemId: map.id }, 400], // a CSV is not a Web Map origin
      [{ relationshipType: 'Map2Service', originItemId: 'c'.repeat(32) }, 400],
      [{ relationshipType: 'Map2Service', originItemId: privateOfOther.id }, 400],
    ];
    for (const [rel, code] of cases) {
      const before = (await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n;
      const blobsBefore = (await svc.db.query<{ k: string }>('SELECT data_blob AS k FROM items WHERE data_blob IS NOT NULL')).length;
      const body = await postForm('content/users/user1/addItem', { title: 'CSV', type: 'CSV', file: [new Blob(['a,b']), 'r.csv'], ...rel }, tokens.user1);
      expect(body.error?.code, JSON.stringify(rel)).toBe(code);
      expect((await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0].n).toBe(before);
      expect((await svc.db.query('SELECT 1 FROM items WHERE data_blob IS NOT NULL')).length).toBe(blobsBefore);
    }
    // A package whose info files the file hook extracted: they go too.
    const pkg = zip([
      { name: 'esriinfo/iteminfo.xml', data: Buffer.from(CARD) },
      { name: 'esriinfo/docs/readme.txt', data: Buffer.from('read me') },
    ]);
    const good = await postForm(
      'content/users/user1/addItem',
      { title: 'Pkg', type: 'Code Attachment', file: [new Blob([new Uint8Array(pkg)]), 'pkg.zip'] },
      tokens.user1,
    );
    expect((await svc.db.query('SELECT path FROM item_info_files WHERE item_id = $1 ORDER BY path', [good.id])).length).toBeGreaterThan(0);
    const failed = await postForm(
      'content/users/user1/addItem',
      { title: 'Pkg', type: 'Code Attachment', file: [new Blob([new Uint8Array(pkg)]), 'pkg.zip'], relationshipType: 'NoSuchType', originItemId: map.id },
      tokens.user1,
    );
    expect(failed.error.code).toBe(400);
    // No blob file is left behind in the store.
    const { readdir } = await import('node:fs/promises');
    const root = onDisk(svc.app.portal.blobs).localPath('0'.repeat(32)).split('/').slice(0, -2).join('/');
    const stored = (await Promise.all((await readdir(root)).map((d) => readdir(`${root}/${d}`)))).flat();
    const known = new Set(
      (await svc.db.query<{ k: string }>('SELECT data_blob AS k FROM items WHERE data_blob IS NOT NULL UNION ALL SELECT blob_key FROM item_info_files')).map(
        (r) => r.k,
      ),
    );
    expect(stored.filter((f) => !known.has(f))).toEqual([]);
  });
});
