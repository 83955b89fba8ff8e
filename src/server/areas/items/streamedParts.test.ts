/**
 * addPart with its token before the file stores the part on disk while it arrives (multipart.ts
 * streamTo, streamedParts.ts): no temporary file, a `.partial` renamed at its end. A part over its
 * cap and a client gone in the middle of a part leave nothing; the part sent again after that is the
 * one committed. With the token after the file (rest-js), the part still comes through a temporary
 * file. The same in an object store: streamedParts.s3.test.ts. addItem's and update's file, token
 * first, is written in its place too (uploadedFiles.ts).
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { onDisk } from '../../store/blobs.ts';
import { abortMidPart, addPart, commitAndRead, MiB, partRows, serviceUnderTest, startUpload } from './streamedParts.testkit.ts';

const t = serviceUnderTest(() => startService());

/** Every file under the store's folder (part files and unfinished .partial ones). */
async function storedFiles() {
  const root = onDisk(t.svc.app.portal.blobs).root;
  const shards = await readdir(root).catch(() => [] as string[]);
  const files = await Promise.all(shards.map(async (s) => (await readdir(path.join(root, s)).catch(() => [] as string[])).map((f) => `${s}/${f}`)));
  return files.flat().sort();
}

/** addPart with chunked transfer encoding (no Content-Length), token first. */
async function addPartChunked(id: string, bytes: number) {
  const form = new FormData();
  form.set('f', 'json');
  form.set('token', t.token);
  form.set('file', new Blob([Buffer.alloc(bytes, 97)]), 'part');
  const body = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  const res = await fetch(`${t.rest}/content/users/user1/items/${id}/addPart?partNum=1`, {
    method: 'POST',
    body: body.body,
    headers: { 'content-type': body.headers.get('content-type')! },
    duplex: 'half',
  } as RequestInit);
  return res.json();
}

describe('a part with its token first, on disk', () => {
  it('goes straight to its file as it arrives: no temporary file, the bytes committed as sent', async () => {
    const id = await startUpload(t.svc, t.token);
    const parts = [randomBytes(30 * MiB), randomBytes(1000)];
    for (const n of [2, 1]) expect(await addPart(t.rest, id, n, parts[n - 1], t.token)).toEqual({ success: true, id });
    expect(t.tmpSeen).toEqual([]);
    const rows = await partRows(t.svc, id);
    expect(rows.map((r) => Number(r.size))).toEqual([30 * MiB, 1000]);
    expect(await storedFiles()).toContain(`${rows[0].blob_key!.slice(0, 2)}/${rows[0].blob_key}`);
    const read = await commitAndRead(t.svc, t.token, id, 'Streamed');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(parts))).toBe(true);
  }, 60_000);

  it('over its cap is refused (413) and leaves no file, partial or whole', async () => {
    const id = await startUpload(t.svc, t.token);
    const before = await storedFiles();
    const over = await addPartChunked(id, LIMITS.chunkedUploadBytes + 1);
    expect(over.error).toMatchObject({ code: 413 });
    expect(t.tmpSeen).toEqual([]);
    await vi.waitFor(async () => expect(await storedFiles()).toEqual(before), { timeout: 10_000, interval: 50 });
    expect(await partRows(t.svc, id)).toEqual([]);
  }, 60_000);

  it('cut off by its client leaves no file; the shorter part sent again is the one committed', async () => {
    const id = await startUpload(t.svc, t.token);
    const before = await storedFiles();
    const partial = async () => (await storedFiles()).some((f) => f.endsWith('.partial'));
    await abortMidPart(t.rest, id, t.token, 30 * MiB, 12 * MiB, partial);
    await vi.waitFor(async () => expect(await storedFiles()).toEqual(before), { timeout: 10_000, interval: 50 });
    expect(await partRows(t.svc, id)).toEqual([]);
    const again = [randomBytes(6 * MiB), randomBytes(2 * MiB)];
    for (const n of [1, 2]) expect(await addPart(t.rest, id, n, again[n - 1], t.token)).toEqual({ success: true, id });
    const read = await commitAndRead(t.svc, t.token, id, 'After a cut');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(Buffer.concat(again))).toBe(true);
    expect(t.tmpSeen).toEqual([]);
  }, 60_000);
});

describe('a part with its token after the file (rest-js addItemPart)', () => {
  it('comes through a temporary file, removed after the answer, and commits as sent', async () => {
    const id = await startUpload(t.svc, t.token);
    const part = randomBytes(12 * MiB);
    expect(await addPart(t.rest, id, 1, part, t.token, 'last')).toEqual({ success: true, id });
    expect(t.tmpSeen.length).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await readdir(t.svc.app.portal.tmpDir)).toEqual([]), { timeout: 10_000, interval: 50 });
    const read = await commitAndRead(t.svc, t.token, id, 'Token last');
    expect(read.committed).toEqual({ success: true, id });
    expect(read.bytes.equals(part)).toBe(true);
  }, 60_000);
});

describe('addItem and update with the token before the file, on disk', () => {
  /** addItem, then update, of a file as a form (the token where asked); answers the item's bytes after each. */
  async function addThenUpdate(tokenAt: 'first' | 'last', first: Buffer, second: Buffer) {
    const send = async (op: string, bytes: Buffer, fields: Record<string, string>) => {
      const form = new FormData();
      form.set('f', 'json');
      if (tokenAt === 'first') form.set('token', t.token);
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('file', new Blob([new Uint8Array(bytes)]), 'data.csv');
      if (tokenAt === 'last') form.set('token', t.token);
      return (await (await fetch(`${t.rest}/content/users/user1/${op}`, { method: 'POST', body: form })).json()) as { id?: string; success?: boolean };
    };
    const read = async (id: string) => (await t.svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${id}/data?token=${t.token}` })).rawPayload;
    const added = await send('addItem', first, { title: `Streamed ${tokenAt}`, type: 'CSV' });
    expect(added.success).toBe(true);
    const afterAdd = await read(added.id!);
    expect((await send(`items/${added.id}/update`, second, {})).success).toBe(true);
    return { afterAdd, afterUpdate: await read(added.id!) };
  }

  it('writes the file in its place as it arrives: no temporary file', async () => {
    const [first, second] = [randomBytes(12 * MiB), randomBytes(3 * MiB)];
    const read = await addThenUpdate('first', first, second);
    expect(read.afterAdd.equals(first)).toBe(true);
    expect(read.afterUpdate.equals(second)).toBe(true);
    expect(t.tmpSeen).toEqual([]);
  }, 60_000);

  it('with the token after the file, spools it as before', async () => {
    const [first, second] = [randomBytes(2 * MiB), randomBytes(MiB)];
    const read = await addThenUpdate('last', first, second);
    expect(read.afterAdd.equals(first)).toBe(true);
    expect(read.afterUpdate.equals(second)).toBe(true);
    expect(t.tmpSeen.length).toBeGreaterThan(0);
  }, 60_000);
});
