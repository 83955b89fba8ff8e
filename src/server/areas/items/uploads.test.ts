/**
 * Multipart uploads: addPart (partNum 1–10000 from the query or the body, any order, re-sent parts
 * replace the old one), parts, commit (joined in order, gaps named, fields applied, status
 * completed), cancel, status (owner or administrator), and who may do each.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { onSignal } from '../../core/signals.ts';
import { onDisk } from '../../store/blobs.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function post(path: string, params: Record<string, string>, token?: string) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const start = async (user = 'user1') => (await post(`content/users/${user}/addItem`, { multipart: 'true', filename: 'data.bin' }, tokens[user])).id as string;
const part = (id: string, n: number | string, content: string, how: 'query' | 'body' = 'query', user = 'user1') =>
  how === 'query'
    ? svc.postForm(`content/users/${user}/items/${id}/addPart?partNum=${n}`, { file: [new Blob([content]), 'blob'] }, tokens[user])
    : svc.postForm(`content/users/${user}/items/${id}/addPart`, { partNum: String(n), file: [new Blob([content]), 'blob'] }, tokens[user]);
const itemRow = async (id: string) => (await svc.db.query<Record<string, any>>('SELECT * FROM items WHERE id = $1', [id]))[0];

describe('parts', () => {
  it('partNum from the query or the body; 1 and 10000 accepted, 0 and 10001 refused naming partNum', async () => {
    const id = await start();
    expect(await part(id, 1, 'a', 'query')).toEqual({ success: true, id });
    expect(await part(id, 10000, 'z', 'body')).toEqual({ success: true, id });
    for (const n of [0, 10001, 'x']) expect((await part(id, n, 'a')).error.details[0]).toContain("'partNum'");
    expect((await svc.postForm(`content/users/user1/items/${id}/addPart`, { file: [new Blob(['a']), 'b'] }, tokens.user1)).error.details[0]).toContain(
      "'partNum'",
    );
    expect((await post(`content/users/user1/items/${id}/addPart?partNum=2`, {}, tokens.user1)).error.details[0]).toContain("'file'");
    expect(await post(`content/users/user1/items/${id}/parts`, {}, tokens.user1)).toEqual({ parts: [1, 10000] });
  });

  it('a re-sent part replaces the old one and the old file is removed', async () => {
    const id = await start();
    await part(id, 1, 'old');
    const [first] = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_parts WHERE item_id = $1', [id]);
    await part(id, 1, 'new!');
    const rows = await svc.db.query<{ blob_key: string; size: number }>('SELECT blob_key, size FROM item_parts WHERE item_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].size).toBe(4);
    expect(existsSync(onDisk(svc.app.portal.blobs).localPath(first.blob_key))).toBe(false);
  });

  it('only the owner adds parts; someone else’s item is "does not exist"', async () => {
    const id = await start();
    expect((await svc.postForm(`content/users/user1/items/${id}/addPart?partNum=1`, { file: [new Blob(['a']), 'b'] }, tokens.admin)).error.code).toBe(403);
    expect((await svc.postForm(`content/users/publisher1/items/${id}/addPart?partNum=1`, { file: [new Blob(['a']), 'b'] }, tokens.publisher1)).error.code).toBe(
      400,
    );
  });
});

describe('the webhook dispatcher during an upload', () => {
  it('is not woken by parts (they write no event), and is by the commit, which does', async () => {
    const id = await start();
    let nudges = 0;
    const stop = onSignal('webhookWorkQueued', () => nudges++);
    try {
      for (const n of [1, 2, 3]) expect(await part(id, n, `part ${n}`)).toEqual({ success: true, id });
      // onResponse hooks run once the answer is out: give the last one a moment.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(nudges).toBe(0);
      expect(await post(`content/users/user1/items/${id}/commit`, { type: 'CSV', title: 'Quiet upload' }, tokens.user1)).toEqual({ success: true, id });
      await vi.waitFor(() => expect(nudges).toBe(1));
    } finally {
      stop();
    }
  });
});

describe('chunked parts', () => {
  it('a part sent with chunked transfer encoding is capped at 50 MB', async () => {
    const url = await svc.listen();
    const id = await start();
    const send = async (bytes: number) => {
      const fd = new FormData();
      fd.set('f', 'json');
      fd.set('token', tokens.user1);
      fd.set('file', new Blob([Buffer.alloc(bytes, 97)]), 'part');
      const r = new Request('http://x/', { method: 'POST', body: fd });
      const reader = r.body!.getReader();
      const stream = new ReadableStream({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
      });
      const res = await fetch(`${url}/content/users/user1/items/${id}/addPart?partNum=1`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': r.headers.get('content-type')! },
        duplex: 'half',
      } as RequestInit);
      return res.json();
    };
    expect(await send(LIMITS.chunkedUploadBytes)).toEqual({ success: true, id });
    const over = await send(LIMITS.chunkedUploadBytes + 1);
    expect(over.error).toMatchObject({ code: 413 });
    expect(over.error.message).toContain('chunked transfer encoding');
    // The part kept is the one that fitted.
    expect(await svc.db.query('SELECT size FROM item_parts WHERE item_id = $1', [id])).toEqual([{ size: LIMITS.chunkedUploadBytes }]);
  }, 60_000);
});

describe('commit', () => {
  it('parts sent out of order are joined in order; fields applied; status completed; parts gone', async () => {
    const id = await start();
    await part(id, 3, 'CCC');
    await part(id, 1, 'A');
    await part(id, 2, 'BB', 'body');
    const parts = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_parts WHERE item_id = $1', [id]);
    expect(await post(`content/users/user1/items/${id}/commit`, { title: 'Joined', type: 'CSV', tags: 't1,t2' }, tokens.user1)).toEqual({ success: true, id });
    const row = await itemRow(id);
    expect(row).toMatchObject({ status: 'completed', title: 'Joined', type: 'CSV', tags: ['t1', 't2'], size: 6, data_kind: 'file', name: 'data.bin' });
    expect(readFileSync(onDisk(svc.app.portal.blobs).localPath(row.data_blob), 'utf8')).toBe('ABBCCC');
    expect(await svc.db.query('SELECT 1 FROM item_parts WHERE item_id = $1', [id])).toEqual([]);
    for (const p of parts) expect(existsSync(onDisk(svc.app.portal.blobs).localPath(p.blob_key))).toBe(false);
    expect(await post(`content/users/user1/items/${id}/status`, {}, tokens.user1)).toMatchObject({ status: 'completed', itemId: id });
    // A committed upload takes no more parts.
    expect((await part(id, 4, 'D')).error.code).toBe(400);
  });

  it('gaps are refused naming the missing part numbers; nothing changes', async () => {
    const id = await start();
    await part(id, 1, 'A');
    await part(id, 4, 'D');
    const body = await post(`content/users/user1/items/${id}/commit`, { title: 'T', type: 'CSV' }, tokens.user1);
    expect(body.error.code).toBe(400);
    expect(body.error.message).toContain('2, 3');
    expect((await itemRow(id)).status).toBe('partial');
    await part(id, 2, 'B');
    await part(id, 3, 'C');
    expect((await post(`content/users/user1/items/${id}/commit`, { title: 'T', type: 'CSV' }, tokens.user1)).success).toBe(true);
  });

  it('no parts, or no title/type: refused', async () => {
    const id = await start();
    expect((await post(`content/users/user1/items/${id}/commit`, { title: 'T', type: 'CSV' }, tokens.user1)).error.code).toBe(400);
    await part(id, 1, 'A');
    expect((await post(`content/users/user1/items/${id}/commit`, { title: 'T' }, tokens.user1)).error.message).toBe("'type' and 'title' property required.");
    expect(
      (await post(`content/users/user1/items/${id}/commit`, { title: 'T', type: 'CSV', snippet: 'x'.repeat(2049) }, tokens.user1)).error.details[0],
    ).toContain("'snippet'");
  });
});

describe('cancel and status', () => {
  it('cancel deletes the item and its parts’ files', async () => {
    const id = await start();
    await part(id, 1, 'A');
    const [p] = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_parts WHERE item_id = $1', [id]);
    expect(await post(`content/users/user1/items/${id}/cancel`, {}, tokens.user1)).toEqual({ success: true });
    expect(await itemRow(id)).toBeUndefined();
    expect(existsSync(onDisk(svc.app.portal.blobs).localPath(p.blob_key))).toBe(false);
    expect((await post(`content/users/user1/items/${id}/cancel`, {}, tokens.user1)).error.code).toBe(400);
  });

  it('status: partial for an open upload (GET or POST); the owner and an administrator see it, others do not', async () => {
    const id = await start();
    expect(await post(`content/users/user1/items/${id}/status`, { jobType: 'publish' }, tokens.user1)).toEqual({
      status: 'partial',
      statusMessage: expect.any(String),
      itemId: id,
    });
    const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/users/user1/items/${id}/status?f=json&token=${tokens.admin}` });
    expect(res.json()).toMatchObject({ status: 'partial', itemId: id });
    expect((await post(`content/users/user1/items/${id}/status`, {}, tokens.publisher1)).error.code).toBe(400);
    expect((await post(`content/users/user1/items/${id}/status`, {}, tokens.partner_admin)).error.code).toBe(400);
  });

  it('status reports failed with its message', async () => {
    const id = await start();
    await svc.db.query(`UPDATE items SET status = 'failed', status_message = 'HTTP 404 from the source' WHERE id = $1`, [id]);
    expect(await post(`content/users/user1/items/${id}/status`, {}, tokens.user1)).toEqual({
      status: 'failed',
      statusMessage: 'HTTP 404 from the source',
      itemId: id,
    });
  });
});
