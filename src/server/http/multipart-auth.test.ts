/**
 * Uploads are authorised before they are stored (issue 24 item 5): no byte of a file part reaches
 * the data directory before the token is checked and the caller may act at the path; file parts
 * follow the operation (none where it takes none, one per file parameter, each within its cap).
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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
/** Spooled parts are removed after the answer is sent; on a loaded machine that can take longer than a tick. */
const expectNoTmpFiles = () => vi.waitFor(async () => expect(await tmpFiles()).toBe(0), { timeout: 10_000, interval: 50 });

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
  it('to addItem, addPart or update keeps nothing and answers Token Required (499)', async () => {
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
    // What was spooled while the caller was unknown is gone once the answer is sent.
    await expectNoTmpFiles();
  });

  it('larger than the allowance before a token is refused as too large (413, not 499), nothing kept', async () => {
    const res = await send('content/users/user1/addItem', [
      ['f', 'json'],
      ['file', [bytes(LIMITS.fileBytesBeforeToken + MB), 'big.bin']],
      ['token', tokens.user1],
    ]);
    expect(res.error).toMatchObject({ code: 413 });
    expect(res.error.details[0]).toContain('send the token first');
    await expectNoTmpFiles();
  });

  it('with an invalid token in the header writes nothing; after the file, keeps nothing; both answer 498', async () => {
    const fields: [string, string | [Blob, string]][] = [
      ['f', 'json'],
      ['file', [bytes(MB), 'a.csv']],
    ];
    expect((await send('content/users/user1/addItem', fields, { 'x-esri-authorization': 'Bearer not-a-token' })).error.code).toBe(498);
    await settle();
    expect(created).toEqual([]);
    expect((await send('content/users/user1/addItem', [...fields, ['token', 'not-a-token']])).error.code).toBe(498);
    await expectNoTmpFiles();
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
    await expectNoTmpFiles();
  });
});

describe('file bytes before the token', () => {
  it('a 12 MB part with the token after it (as rest-js sends addItemPart) is stored', async () => {
    const id = await startUpload('user1');
    const res = await send(`content/users/user1/items/${id}/addPart?partNum=1`, [
      ['file', [bytes(12 * MB), 'part1']],
      ['f', 'json'],
      ['token', tokens.user1],
    ]);
    expect(res, JSON.stringify(res)).toMatchObject({ success: true, id });
    expect(await svc.post(`content/users/user1/items/${id}/parts`, {}, tokens.user1)).toEqual({ parts: [1] });
  });

  /** A token-last addItem body whose file stops after `first` bytes until `go` resolves. */
  function heldUpload(first: number, rest: number, go: Promise<void>, from: string) {
    const boundary = `----hold${Math.random().toString(16).slice(2)}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const tail = (fields: Record<string, string>) =>
      Object.entries(fields)
        .map(([k, v]) => `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}`)
        .join('') + `\r\n--${boundary}--\r\n`;
    async function* body() {
      yield Buffer.from(head);
      for (let n = 0; n < first; n += MB) yield Buffer.alloc(Math.min(MB, first - n), 120);
      await go;
      for (let n = 0; n < rest; n += MB) yield Buffer.alloc(Math.min(MB, rest - n), 120);
      yield Buffer.from(tail({ f: 'json', title: 'Held', type: 'CSV', token: tokens.user1 }));
    }
    return svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/content/users/user1/addItem',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Readable.from(body()),
      remoteAddress: from,
    });
  }

  /** Resolves once a spooled file in the tmp folder holds at least `size` bytes. */
  async function spooled(size: number) {
    for (let i = 0; i < 400; i++) {
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        if ((await stat(path.join(tmpDir, name)).catch(() => ({ size: 0 }))).size >= size) return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no spooled file of ${size} bytes`);
  }

  it('one address may not hold more than its share before the token; other addresses and the held upload go on', async () => {
    let release!: () => void;
    const go = new Promise<void>((r) => (release = r));
    const first = LIMITS.fileBytesBeforeToken - 5 * MB;
    const held = heldUpload(first, 2 * MB, go, '127.0.0.1');
    await spooled(first);
    // The same address: the first upload's bytes and these pass the per-source cap.
    const over = LIMITS.fileBytesBeforeTokenPerSource - first + MB;
    const refused = await heldUpload(over, 0, Promise.resolve(), '127.0.0.1');
    expect(refused.json().error).toMatchObject({ code: 413 });
    expect(refused.json().error.details[0]).toContain('one address');
    expect(refused.headers.connection).toBe('close');
    // Another address is not held back by the first one's bytes.
    const other = await heldUpload(over, 0, Promise.resolve(), '127.0.0.2');
    expect(other.json(), other.body).toMatchObject({ success: true });
    release();
    const done = await held;
    expect(done.json(), done.body).toMatchObject({ success: true });
    const [row] = await svc.db.query<{ size: number }>('SELECT size FROM items WHERE id = $1', [done.json().id]);
    expect(Number(row.size)).toBe(first + 2 * MB);
    // The share is given back: the same address may spool again.
    const again = await heldUpload(over, 0, Promise.resolve(), '127.0.0.1');
    expect(again.json(), again.body).toMatchObject({ success: true });
  }, 60_000);
});
