/**
 * Uploads are authorised before they are stored (issue 24 item 5): no byte of a file part reaches
 * the data directory before the token is checked and the caller may act at the path; file parts
 * follow the operation (none where it takes none, one per file parameter, each within its cap).
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { LIMITS } from '../../shared/limits.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let tmpDir: string;
let created: string[];
let watcher: FSWatcher | undefined;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1']) tokens[u] = await svc.tokenFor(u);
  tmpDir = svc.app.portal.tmpDir;
});
afterAll(() => svc.close());

// Every name that appears in the files folder or its tmp folder while a test runs (the tmp folder is
// created only when the first file is written; once it exists, it is watched too).
beforeEach(() => {
  created = [];
  watcher = watch(path.dirname(tmpDir), { recursive: true }, (_event, name) => {
    if (name && String(name).startsWith('tmp')) created.push(String(name));
  });
});
afterEach(() => watcher?.close());

const MB = 1024 * 1024;

/** A multipart body with the fields in this order (rest-js and FormData put the token last). */
async function multipart(fields: [string, string | [Blob, string]][]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of fields) {
    if (Array.isArray(v)) form.append(k, v[0], v[1]);
    else form.append(k, v);
  }
  const r = new Response(form);
  return { payload: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': r.headers.get('content-type')! } };
}

async function send(url: string, fields: [string, string | [Blob, string]][], headers: Record<string, string> = {}) {
  const body = await multipart(fields);
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${url}`, payload: body.payload, headers: { ...body.headers, ...headers } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const bytes = (n: number) => new Blob([Buffer.alloc(n, 120)]);
const tmpFiles = async () => (await readdir(tmpDir).catch(() => [] as string[])).length;
/** Lets the watcher report what the request did. */
const settle = () => new Promise((r) => setTimeout(r, 50));

async function startUpload(user: string) {
  const res = await svc.post(`content/users/${user}/addItem`, { multipart: 'true', filename: 'big.bin', title: 'Parts', type: 'CSV' }, tokens[user]);
  expect(res.success).toBe(true);
  return res.id as string;
}

async function textItem(user: string) {
  const res = await svc.post(`content/users/${user}/addItem`, { title: 'Text', type: 'Web Map', text: '{}' }, tokens[user]);
  expect(res.success).toBe(true);
  return { id: res.id as string };
}

describe('an anonymous upload', () => {
  it('to addItem, addPart or update writes nothing and answers Token Required (499)', async () => {
    const id = await startUpload('user1');
    const item = await textItem('user1');
    for (const url of ['content/users/user1/addItem', `content/users/user1/items/${id}/addPart?partNum=1`, `content/users/user1/items/${item.id}/update`]) {
      const res = await send(url, [
        ['f', 'json'],
        ['title', 'Anonymous'],
        ['type', 'CSV'],
        ['file', [bytes(3 * MB), 'a.csv']],
      ]);
      expect(res.error, url).toMatchObject({ code: 499, message: 'Token Required' });
    }
    await settle();
    expect(created).toEqual([]);
    expect(await tmpFiles()).toBe(0);
  });

  it('larger than the allowance held before a token is refused once the allowance is passed, nothing written', async () => {
    const res = await send('content/users/user1/addItem', [
      ['f', 'json'],
      ['file', [bytes(LIMITS.fileBytesBeforeToken + MB), 'big.bin']],
    ]);
    expect(res.error).toMatchObject({ code: 499, message: 'Token Required' });
    expect(res.error.details[0]).toContain('before the file');
    await settle();
    expect(created).toEqual([]);
  });

  it('with an invalid token (header, or a field after the file) writes nothing and answers 498', async () => {
    const fields: [string, string | [Blob, string]][] = [
      ['f', 'json'],
      ['file', [bytes(MB), 'a.csv']],
    ];
    expect((await send('content/users/user1/addItem', fields, { 'x-esri-authorization': 'Bearer not-a-token' })).error.code).toBe(498);
    expect((await send('content/users/user1/addItem', [...fields, ['token', 'not-a-token']])).error.code).toBe(498);
    await settle();
    expect(created).toEqual([]);
  });
});

describe('a signed-in member', () => {
  it("may not send files into another member's path (403 before any byte is written)", async () => {
    const id = await startUpload('publisher1');
    const item = await textItem('publisher1');
    for (const url of [
      'content/users/publisher1/addItem',
      `content/users/publisher1/items/${id}/addPart?partNum=1`,
      `content/users/publisher1/items/${item.id}/update`,
    ]) {
      const res = await send(url, [
        ['f', 'json'],
        ['token', tokens.user1],
        ['title', 'Not mine'],
        ['type', 'CSV'],
        ['file', [bytes(MB), 'a.csv']],
      ]);
      expect(res.error, url).toMatchObject({ code: 403 });
    }
    await settle();
    expect(created).toEqual([]);
  });

  it('with the token after the file (as rest-js sends it) uploads as before', async () => {
    const res = await send('content/users/user1/addItem', [
      ['f', 'json'],
      ['title', 'Token last'],
      ['type', 'CSV'],
      ['file', [new Blob(['a,b\n1,2\n']), 'a.csv']],
      ['token', tokens.user1],
    ]);
    expect(res.success, JSON.stringify(res)).toBe(true);
    const [row] = await svc.db.query<{ size: number }>('SELECT size FROM items WHERE id = $1', [res.id]);
    expect(Number(row.size)).toBe(8);
  });

  it("an administrator holding portal:admin:updateItems may send a new file to another member's item", async () => {
    const added = await send('content/users/user1/addItem', [
      ['f', 'json'],
      ['token', tokens.user1],
      ['title', 'Admin replaces'],
      ['type', 'CSV'],
      ['file', [new Blob(['x']), 'a.csv']],
    ]);
    const res = await send(`content/users/user1/items/${added.id}/update`, [
      ['f', 'json'],
      ['token', tokens.admin],
      ['file', [new Blob(['a,b\n']), 'b.csv']],
    ]);
    expect(res.success, JSON.stringify(res)).toBe(true);
  });
});

describe('file parts follow the operation', () => {
  it('an operation that takes no file refuses a file part, naming it, before storing it', async () => {
    const res = await send('community/self', [
      ['f', 'json'],
      ['token', tokens.user1],
      ['file', [bytes(MB), 'a.txt']],
    ]);
    expect(res.error).toMatchObject({ code: 400, fieldErrors: { file: 'is a file part; this operation takes no file' } });
    await settle();
    expect(created).toEqual([]);
  });

  it('addPart takes one file: a second file part, or one under another name, is refused', async () => {
    const id = await startUpload('user1');
    const second = await send(`content/users/user1/items/${id}/addPart?partNum=1`, [
      ['token', tokens.user1],
      ['file', [new Blob(['a']), 'a']],
      ['file', [new Blob(['b']), 'b']],
    ]);
    expect(second.error).toMatchObject({ code: 400, fieldErrors: { file: 'was sent as a file more than once; this operation takes one' } });
    const other = await send(`content/users/user1/items/${id}/addPart?partNum=1`, [
      ['token', tokens.user1],
      ['thumbnail', [new Blob(['a']), 'a.png']],
    ]);
    expect(other.error).toMatchObject({ code: 400, fieldErrors: { thumbnail: 'is a file part; this operation takes files only as file' } });
    expect(await svc.post(`content/users/user1/items/${id}/parts`, {}, tokens.user1)).toEqual({ parts: [] });
  });

  it('a thumbnail part over its cap is refused as it arrives (413)', async () => {
    const res = await send('content/users/user1/addItem', [
      ['token', tokens.user1],
      ['title', 'Big thumbnail'],
      ['type', 'CSV'],
      ['thumbnail', [bytes(10 * MB + 1), 't.png']],
    ]);
    expect(res.error).toMatchObject({ code: 413 });
    // The part written up to its cap is removed once the answer is sent.
    await settle();
    expect(await tmpFiles()).toBe(0);
  });
});
