/**
 * Uploads from the console: the token goes in the X-Esri-Authorization header and the plain fields
 * before the file, so a portal that refuses file bytes before the token takes files over 10 MB; a
 * 498/499 to an upload that carried the token and an upload that stops moving are upload errors
 * with their reason, never an ended session.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { ApiError, isSessionInvalid } from './errors.ts';
import { addItem, getItem } from './items.ts';
import { configureApi, postForm } from './request.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

const MB = 1024 * 1024;

/** A loopback portal that answers every request with `handle` (and any preflight with yes). */
async function fakePortal(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Allow-Headers', 'X-Esri-Authorization, Content-Type');
    if (req.method === 'OPTIONS') return res.end();
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sharing/rest`, server };
}

describe('postForm', () => {
  it('adds a 12 MB file in one request (the token comes before the file)', async () => {
    const { token } = await svc.tokenFor('user1');
    configureApi({ portalUrl: svc.restUrl, token });
    const file = new File([new Uint8Array(12 * MB).fill(97)], 'twelve.csv', { type: 'text/csv' });
    const added = await addItem('user1', undefined, { title: 'Twelve', type: 'CSV', file });
    expect(added.success).toBe(true);
    expect((await getItem(added.id)).size).toBe(12 * MB);
  }, 60_000);

  it('sends the token as a header, not a field, and the fields before the file', async () => {
    let seen: { auth?: string; body: string } | undefined;
    const { url, server } = await fakePortal((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        seen = { auth: req.headers['x-esri-authorization'] as string | undefined, body };
        res.setHeader('Content-Type', 'application/json');
        res.end('{"success":true}');
      });
    });
    try {
      configureApi({ portalUrl: url, token: 'TOKEN-1' });
      await postForm('content/users/u/addItem', { file: new File(['a,b\n'], 'a.csv'), title: 'T' });
      expect(seen?.auth).toBe('Bearer TOKEN-1');
      expect(seen?.body).not.toContain('name="token"');
      expect(seen!.body.indexOf('name="title"')).toBeLessThan(seen!.body.indexOf('name="file"'));
      expect(seen!.body.indexOf('name="f"')).toBeLessThan(seen!.body.indexOf('name="file"'));
    } finally {
      server.close();
    }
  });

  it('a 499 to an upload that carried the token is an upload error, not an ended session', async () => {
    const { url, server } = await fakePortal((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ error: { code: 499, message: 'Token Required', details: ['Token Required'] } }));
      });
    });
    try {
      configureApi({ portalUrl: url, token: 'TOKEN-1' });
      const err = await postForm('content/users/u/addItem', { file: new File(['x'], 'a.csv') }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(isSessionInvalid(err)).toBe(false);
      expect(err).toMatchObject({ messageCode: 'UPLOAD_REFUSED', message: 'The portal refused the upload.' });
      expect((err as ApiError).detailLines[0]).toContain('answered 499');
    } finally {
      server.close();
    }
  });

  it('an upload the portal stops reading fails as stalled, with how far it got', async () => {
    const held: IncomingMessage[] = [];
    // Reads nothing and never answers: the body stops moving once the socket's buffers are full.
    const { url, server } = await fakePortal((req) => {
      req.pause();
      held.push(req);
    });
    try {
      configureApi({ portalUrl: url, token: 'TOKEN-1' });
      const file = new File([new Uint8Array(32 * MB)], 'big.csv');
      const started = Date.now();
      const err = await postForm('content/users/u/addItem', { file }, { stallMs: 1000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(isSessionInvalid(err)).toBe(false);
      expect(err).toMatchObject({ code: 408, messageCode: 'UPLOAD_STALLED', message: 'The upload stalled.' });
      expect((err as ApiError).detailLines[0]).toMatch(/no more of the file for 1 s/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const r of held) r.socket.destroy();
      server.close();
    }
  }, 30_000);
});
