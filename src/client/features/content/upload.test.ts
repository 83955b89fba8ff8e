/**
 * Multipart uploads against the real service: parts in order or not, progress per part, a part
 * that fails is retried and then left for "retry failed parts", and cancel drops the partial item.
 * The network failure is the only thing simulated: one XMLHttpRequest send is made to error.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi, getItem, getItemStatus, request } from '../../api/index.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { MultipartUpload, partCount } from './upload.ts';

let svc: ClientTestService;
let token: string;

beforeAll(async () => {
  svc = await startClientService();
  token = (await svc.tokenFor('publisher1')).token;
}, 60_000);
// The test setup signs out after each test (which points the API module back at its default).
beforeEach(() => configureApi({ portalUrl: svc.restUrl, token }));
afterAll(() => svc.close());
afterEach(() => vi.restoreAllMocks());

const KB = 1024;
function fileOf(size: number, name = 'data.bin'): File {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 251;
  return new File([bytes], name, { type: 'application/octet-stream' });
}

async function dataOf(itemId: string): Promise<Uint8Array> {
  const res = await fetch(`${svc.restUrl}/content/items/${itemId}/data?token=${token}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Makes the next `count` part sends (addPart) fail as a dropped connection would. */
function failPartSends(count: number, partNum?: number) {
  const send = XMLHttpRequest.prototype.send;
  let left = count;
  vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const isPart = body instanceof FormData && body.has('partNum') && (partNum === undefined || body.get('partNum') === String(partNum));
    if (isPart && left > 0) {
      left--;
      this.onerror?.(new ProgressEvent('error'));
      return;
    }
    return send.call(this, body);
  });
}

describe('multipart upload', () => {
  it('counts parts: at least one, the last one shorter', () => {
    expect(partCount(0, 100)).toBe(1);
    expect(partCount(100, 100)).toBe(1);
    expect(partCount(101, 100)).toBe(2);
  });

  it('sends every part, reports progress, commits with the fields; the data is the file', async () => {
    const file = fileOf(300 * KB + 17);
    const upload = new MultipartUpload({ username: 'publisher1', file, fields: { title: 'Parts test', type: 'CSV', tags: ['parts'] }, partBytes: 64 * KB });
    const phases: string[] = [];
    upload.subscribe((s) => phases.at(-1) !== s.phase && phases.push(s.phase));
    const id = await upload.start();
    expect(upload.current.parts).toHaveLength(5);
    expect(upload.current.parts.every((p) => p.state === 'done' && p.sent === p.size)).toBe(true);
    expect(upload.current.sentBytes).toBe(file.size);
    expect(phases).toEqual(['uploading', 'committing', 'done']);
    const item = await getItem(id);
    expect(item).toMatchObject({ title: 'Parts test', type: 'CSV', tags: ['parts'], size: file.size });
    expect(await dataOf(id)).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it('retries a failed part on its own; one that keeps failing waits for "retry failed parts", and the rest stay sent', async () => {
    const file = fileOf(200 * KB);
    // Part 2 fails three times (every automatic attempt), then works.
    failPartSends(3, 2);
    const upload = new MultipartUpload({ username: 'publisher1', file, fields: { title: 'Retry test', type: 'CSV' }, partBytes: 64 * KB });
    await expect(upload.start()).rejects.toThrow(/1 part could not be sent/);
    expect(upload.current.phase).toBe('needs-retry');
    expect(upload.current.parts.map((p) => p.state)).toEqual(['done', 'failed', 'done', 'done']);
    const itemId = upload.current.itemId!;
    expect((await request<{ parts: number[] }>(`content/users/publisher1/items/${itemId}/parts`, {}, { method: 'POST' })).parts.sort()).toEqual([1, 3, 4]);
    expect((await getItemStatus('publisher1', itemId)).status).toBe('partial');

    const id = await upload.retryFailed();
    expect(id).toBe(itemId);
    expect(upload.current.phase).toBe('done');
    expect(await dataOf(id)).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it('a part that fails once is retried automatically and the upload completes', async () => {
    failPartSends(1, 1);
    const file = fileOf(130 * KB);
    const upload = new MultipartUpload({ username: 'publisher1', file, fields: { title: 'Auto retry', type: 'CSV' }, partBytes: 64 * KB });
    const id = await upload.start();
    expect(await dataOf(id)).toEqual(new Uint8Array(await file.arrayBuffer()));
  });

  it('cancel drops the partial item on the portal', async () => {
    failPartSends(3, 2);
    const upload = new MultipartUpload({ username: 'publisher1', file: fileOf(130 * KB), fields: { title: 'Cancel test', type: 'CSV' }, partBytes: 64 * KB });
    await expect(upload.start()).rejects.toThrow();
    const itemId = upload.current.itemId!;
    await upload.cancel();
    expect(upload.current.phase).toBe('cancelled');
    await expect(getItemStatus('publisher1', itemId)).rejects.toMatchObject({ code: 400 });
  });

  it('refuses a commit the portal refuses (a title that is too long) and says why', async () => {
    const upload = new MultipartUpload({ username: 'publisher1', file: fileOf(10 * KB), fields: { title: 'x'.repeat(300), type: 'CSV' }, partBytes: 64 * KB });
    await expect(upload.start()).rejects.toThrow();
    expect(upload.current.phase).toBe('failed');
    expect(upload.current.error).toMatch(/title/i);
  });
});
