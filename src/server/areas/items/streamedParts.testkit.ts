/**
 * What the streamed-part tests share (streamedParts.test.ts on disk, streamedParts.s3.test.ts in an
 * object store): a service over HTTP with its temporary folder watched, and addPart as clients send
 * it — token first, token after the file (rest-js), and a client that goes away in the middle.
 */
import { once } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import type { TestService } from '../../../../test/support/service.ts';
import { storedPartsOf } from './repo/uploads.ts';

export const MiB = 1024 * 1024;

/** The service, user1's token, its REST address, and every name seen in its temporary folder during a test. */
export function serviceUnderTest(start: () => Promise<TestService>) {
  const t = { svc: undefined as unknown as TestService, token: '', rest: '', tmpSeen: [] as string[] };
  let watcher: FSWatcher | undefined;
  beforeAll(async () => {
    t.svc = await start();
    t.token = await t.svc.tokenFor('user1');
    t.rest = await t.svc.listen();
  }, 180_000);
  afterAll(() => t.svc?.close());
  // The temporary folder is made when the first spooled file is written: watch its parent.
  beforeEach(() => {
    t.tmpSeen = [];
    const tmpDir = t.svc.app.portal.tmpDir;
    watcher = watch(path.dirname(tmpDir), { recursive: true }, (_event, name) => {
      if (name && String(name).startsWith(path.basename(tmpDir))) t.tmpSeen.push(String(name));
    });
  });
  afterEach(() => watcher?.close());
  return t;
}

/** A JSON answer of the service (a result, or { error }). */
type Answer = Record<string, unknown>;

export async function startUpload(svc: TestService, token: string): Promise<string> {
  const started = (await svc.post('content/users/user1/addItem', { multipart: 'true', filename: 'streamed.bin' }, token)) as { id: string };
  return started.id;
}

/** addPart over HTTP as a browser sends it with FormData (Content-Length stated): the token before or after the file. */
export async function addPart(rest: string, id: string, n: number, bytes: Buffer, token: string, tokenAt: 'first' | 'last' = 'first'): Promise<Answer> {
  const form = new FormData();
  form.set('f', 'json');
  if (tokenAt === 'first') form.set('token', token);
  form.set('file', new Blob([new Uint8Array(bytes)]), `part${n}`);
  if (tokenAt === 'last') form.set('token', token);
  const res = await fetch(`${rest}/content/users/user1/items/${id}/addPart?partNum=${n}`, { method: 'POST', body: form });
  return (await res.json()) as Answer;
}

export async function commitAndRead(svc: TestService, token: string, id: string, title: string) {
  const committed = (await svc.post(`content/users/user1/items/${id}/commit`, { type: 'Image', title }, token)) as Answer;
  const data = await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${id}/data?token=${token}` });
  return { committed, bytes: data.rawPayload };
}

/**
 * addPart of `total` file bytes (token first) that stops after `sent` of them, once `ready` says
 * the service has begun storing it: the client goes away in the middle of the part.
 */
export async function abortMidPart(rest: string, id: string, token: string, total: number, sent: number, ready: () => Promise<boolean>) {
  const boundary = 'streamed-part-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="f"\r\n\r\njson\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const target = new URL(`${rest}/content/users/user1/items/${id}/addPart?partNum=1`);
  const socket = createConnection({ host: target.hostname, port: Number(target.port) });
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(
    `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + total + tail.length}\r\n\r\n`,
  );
  socket.write(head);
  const chunk = Buffer.alloc(MiB, 0x41);
  for (let done = 0; done < sent; done += MiB) if (!socket.write(chunk)) await once(socket, 'drain');
  await vi.waitFor(async () => expect(await ready()).toBe(true), { timeout: 60_000, interval: 50 });
  socket.destroy();
}

export const partRows = (svc: TestService, id: string) => storedPartsOf(svc.db, id);
