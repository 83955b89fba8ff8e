/**
 * Retention sweeps on the real service with a driven clock: each sweep removes exactly what is past
 * its limit and nothing else — finished webhook deliveries (with their attempts) by age and beyond
 * the per-webhook cap, the events outbox (never an event an active webhook has still to receive,
 * never one not yet fanned out), abandoned multipart uploads (item, parts and their blobs), finished
 * item jobs, proxy hit windows, expired tokens, old temporary files (not one being received) and
 * stray blob files (not one an item refers to) — in batches, with a vacuum on the embedded database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { RETENTION_DEFAULTS } from '../config.ts';
import { runRetentionSweeps, startRetentionSweeps } from './retention.ts';
import { runWebhookDispatch } from './webhooks/dispatcher.ts';
import { onDisk } from '../store/blobs.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

let receiver: http.Server;
let hookBase: string;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

/** A service on a driven clock, and helpers that sign in afresh at the current time. */
async function service(config: Partial<typeof RETENTION_DEFAULTS> = {}, now = T0) {
  const clock = { t: now };
  const svc = await startService({ clock: { now: () => clock.t }, config: { retention: { ...RETENTION_DEFAULTS, ...config } } });
  const post = async (p: string, params: Record<string, string>, user = 'admin') => {
    const body = await svc.post(p, params, await svc.tokenFor(user));
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    return body;
  };
  const addItem = async (title: string) => (await post('content/users/admin/addItem', { title, type: 'Web Mapping Application', text: '{}' })).id as string;
  const count = async (sql: string, params: unknown[] = []) => (await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
  const sweep = (opts: Parameters<typeof runRetentionSweeps>[1] = {}) => runRetentionSweeps(svc.app.portal, { pauseMs: 0, ...opts });
  return { svc, clock, post, addItem, count, sweep };
}

async function multipartForm(svc: TestService, url: string, fields: Record<string, string | [Blob, string]>) {
  const fd = new FormData();
  fd.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) fd.set(k, v[0], v[1]);
    else fd.set(k, v);
  }
  const r = new Request('http://x/', { method: 'POST', body: fd });
  const res = await svc.app.inject({
    method: 'POST',
    url: `/sharing/rest/${url}`,
    payload: Buffer.from(await r.arrayBuffer()),
    headers: { 'content-type': r.headers.get('content-type')! },
  });
  return res.json();
}

describe('webhook deliveries and the events outbox', () => {
  let s: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    s = await service();
  });
  afterAll(() => s.svc.close());

  it('removes finished deliveries past the age and events past theirs, never pending ones or events still owed or not yet fanned out', async () => {
    const { svc, clock, post, addItem, count, sweep } = s;
    const ctx = svc.app.portal;
    const base = `portals/${svc.orgId}/webhooks`;
    await post(`${base}/settings/update`, { notificationAttempts: '3', notificationTimeOutInSeconds: '5', notificationElapsedTimeInSeconds: '60' });
    const all = (await post(`${base}/createWebhook`, { name: 'all', url: `${hookBase}/ok`, changes: 'allChanges' })).id as string;
    const groupsOnly = (await post(`${base}/createWebhook`, { name: 'groups', url: `${hookBase}/fail`, events: '/groups' })).id as string;
    const eventOf = async (subject: string, operation: string) =>
      (await svc.db.query<{ id: string; seq: number }>('SELECT id, seq FROM events WHERE subject_id = $1 AND operation = $2', [subject, operation]))[0];

    const i1 = await addItem('one');
    const i2 = await addItem('two');
    await runWebhookDispatch(ctx);
    clock.t = T0 + 20 * DAY;
    const i3 = await addItem('three');
    await runWebhookDispatch(ctx);
    clock.t = T0 + 21 * DAY;
    const g1 = (await post('community/createGroup', { title: 'Owed', access: 'org' })).group.id as string;
    await runWebhookDispatch(ctx);
    clock.t = T0 + 22 * DAY;
    const i4 = await addItem('not fanned out');

    const [e1, e2, e3, e4, e5] = await Promise.all([eventOf(i1, 'add'), eventOf(i2, 'add'), eventOf(i3, 'add'), eventOf(g1, 'add'), eventOf(i4, 'add')]);
    const deliveriesOf = async (hook: string) =>
      (
        await svc.db.query<{ event_id: string; state: string }>(
          'SELECT event_id, state FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created, event_id',
          [hook],
        )
      ).map((d) => `${d.event_id}:${d.state}`);
    const allBefore = await deliveriesOf(all);
    expect(allBefore).toEqual(expect.arrayContaining([`${e1.id}:delivered`, `${e2.id}:delivered`, `${e3.id}:delivered`, `${e4.id}:delivered`]));
    expect(await deliveriesOf(groupsOnly)).toEqual([`${e4.id}:pending`]);
    const attemptsOfOld = () => count(`webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = ANY($1)`, [[e1.id, e2.id]]);
    expect(await attemptsOfOld()).toBe(2);
    const attemptsBefore = await count('webhook_attempts');

    // 31 days on: the deliveries finished at T0 are past 30 days; the rest are not; no event is past 365 days.
    clock.t = T0 + 31 * DAY;
    const eventsBefore = await count('events');
    const first = await sweep();
    expect(first.removed['webhook deliveries past the age limit']).toBe(allBefore.length - 2);
    expect(await deliveriesOf(all)).toEqual([`${e3.id}:delivered`, `${e4.id}:delivered`]);
    expect(await deliveriesOf(groupsOnly)).toEqual([`${e4.id}:pending`]);
    expect(await attemptsOfOld()).toBe(0);
    expect(await count('webhook_attempts')).toBe(attemptsBefore - (allBefore.length - 2));
    expect(first.removed['events outbox']).toBe(0);
    expect(await count('events')).toBe(eventsBefore);

    // 400 days on: every finished delivery is past; the pending one stays. Events up to the owed one go.
    clock.t = T0 + 400 * DAY;
    const second = await sweep();
    expect(await deliveriesOf(all)).toEqual([]);
    expect(await deliveriesOf(groupsOnly)).toEqual([`${e4.id}:pending`]);
    expect(second.removed['events outbox']).toBe(eventsBefore - (await count('events')));
    expect(await count('events WHERE seq < $1', [e4.seq])).toBe(0);
    expect(await count('events WHERE id = ANY($1)', [[e4.id, e5.id]])).toBe(2);

    // An inactive webhook is owed nothing: the event goes; the one not yet fanned out still stays.
    await svc.db.query('UPDATE webhooks SET is_active = false WHERE id = $1', [groupsOnly]);
    await sweep();
    expect(await count('events WHERE id = $1', [e4.id])).toBe(0);
    expect(await count('events WHERE id = $1', [e5.id])).toBe(1);
    expect(await deliveriesOf(groupsOnly)).toEqual([`${e4.id}:pending`]);
  });
});

describe('the per-webhook cap, batches and vacuum', () => {
  let s: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    s = await service({ deliveriesPerWebhook: 3 });
  });
  afterAll(() => s.svc.close());

  it('keeps the newest finished deliveries of each webhook, removing the rest in batches', async () => {
    const { svc, clock, post, addItem, count, sweep } = s;
    const hook = (await post(`portals/${svc.orgId}/webhooks/createWebhook`, { name: 'capped', url: `${hookBase}/ok`, events: '/items' })).id as string;
    const items: string[] = [];
    for (let i = 0; i < 6; i++) {
      clock.t += 1000;
      items.push(await addItem(`capped ${i}`));
      await runWebhookDispatch(svc.app.portal);
    }
    expect(await count('webhook_deliveries WHERE webhook_id = $1', [hook])).toBe(6);
    const result = await sweep({ batch: 2 });
    expect(result.removed['webhook deliveries beyond the per-webhook cap']).toBe(3);
    // 2 + 1: the short second batch ends it.
    expect(result.batches['webhook deliveries beyond the per-webhook cap']).toBe(2);
    const kept = await svc.db.query<{ subject: string }>(`SELECT event->>'id' AS subject FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY finished`, [
      hook,
    ]);
    expect(kept.map((k) => k.subject)).toEqual(items.slice(3));
    expect(await count('webhook_attempts WHERE webhook_id = $1', [hook])).toBe(3);
    expect((await sweep()).removed['webhook deliveries beyond the per-webhook cap']).toBe(0);
  });

  it('removes expired tokens in batches and vacuums the embedded database after many rows', async () => {
    const { svc, clock, count, sweep } = s;
    const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    await svc.db.query(
      `INSERT INTO tokens (token_hash, user_id, created, expires)
       SELECT md5(random()::text || g), $1, $2::bigint, $2::bigint + 1000 FROM generate_series(1, 2500) g`,
      [admin.id, clock.t],
    );
    const valid = randomBytes(16).toString('hex');
    await svc.db.query('INSERT INTO tokens (token_hash, user_id, created, expires) VALUES ($1, $2, $3, $4)', [valid, admin.id, clock.t, clock.t + 10 * 60_000]);
    const expiredBefore = await count('tokens WHERE expires <= $1', [clock.t + 2000]);
    clock.t += 2000;
    const result = await sweep();
    expect(result.removed['expired tokens']).toBe(expiredBefore);
    expect(result.batches['expired tokens']).toBe(Math.floor(expiredBefore / 500) + 1);
    expect(await count('tokens WHERE token_hash = $1', [valid])).toBe(1);
    expect(await count('tokens WHERE expires <= $1', [clock.t])).toBe(0);
    if (svc.db.kind === 'pglite') expect(result.vacuumed).toContain('tokens');
    else expect(result.vacuumed).toEqual([]);
  });
});

describe('vacuum on the embedded database', () => {
  let s: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    s = await service();
  });
  afterAll(() => s.svc.close());

  it('counts removed rows across passes before vacuuming a table, vacuums the whole database every 12th pass, and checkpoints after each', async () => {
    const { svc, clock, sweep } = s;
    const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    const expiredTokens = (n: number) =>
      svc.db.query(
        `INSERT INTO tokens (token_hash, user_id, created, expires) SELECT md5(random()::text || g), $1, $2::bigint, $2::bigint FROM generate_series(1, $3::int) g`,
        [admin.id, clock.t - 1, n],
      );
    const vacuum = { removed: new Map<string, number>(), passes: 0 };
    const embedded = svc.db.kind === 'pglite';
    await expiredTokens(1500);
    expect((await sweep({ vacuum })).vacuumed).toEqual([]);
    await expiredTokens(1500);
    const second = await sweep({ vacuum });
    expect(second.removed['expired tokens']).toBe(1500);
    expect(second.vacuumed).toEqual(embedded ? ['tokens'] : []);
    expect(second.checkpointed).toBe(embedded);
    for (let pass = 3; pass < 12; pass++) expect((await sweep({ vacuum })).vacuumed).toEqual([]);
    expect((await sweep({ vacuum })).vacuumed).toEqual(embedded ? ['*'] : []);
  });
});

describe('OAuth codes, sign-in forms and refresh tokens', () => {
  let s: Awaited<ReturnType<typeof service>>;
  beforeAll(async () => {
    s = await service();
  });
  afterAll(() => s.svc.close());

  it('removes expired ones; a refresh token stays while an access token issued from it is valid', async () => {
    const { svc, clock, addItem, count, sweep } = s;
    const now = clock.t;
    const item = await addItem('oauth app');
    const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    const client = randomBytes(8).toString('hex');
    await svc.db.query(
      `INSERT INTO oauth_apps (client_id, item_id, org_id, client_secret_hash, app_type, registered, modified) VALUES ($1, $2, $3, 'x', 'browser', $4, $4)`,
      [client, item, svc.orgId, now],
    );
    const hash = () => randomBytes(16).toString('hex');
    const code = (expires: number) =>
      svc.db.query(
        `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, code_challenge_method, created, expires) VALUES ($1, $2, $3, 'urn:x', 'c', 'S256', $4, $5)`,
        [hash(), client, admin.id, now - 1, expires],
      );
    const form = (expires: number) =>
      svc.db.query(
        `INSERT INTO oauth_sign_in_forms (nonce_hash, binding_hash, client_id, redirect_uri, code_challenge, code_challenge_method, created, expires) VALUES ($1, 'b', $2, 'urn:x', 'c', 'S256', $3, $4)`,
        [hash(), client, now - 1, expires],
      );
    const refresh = async (expires: number, accessExpires?: number) => {
      const h = hash();
      await svc.db.query(
        `INSERT INTO oauth_refresh_tokens (token_hash, client_id, user_id, redirect_uri, created, expires) VALUES ($1, $2, $3, 'urn:x', $4, $5)`,
        [h, client, admin.id, now - 1, expires],
      );
      if (accessExpires !== undefined)
        await svc.db.query('INSERT INTO tokens (token_hash, user_id, created, expires, client_id, refresh_hash) VALUES ($1, $2, $3, $4, $5, $6)', [
          hash(),
          admin.id,
          now - 1,
          accessExpires,
          client,
          h,
        ]);
      return h;
    };
    await Promise.all([code(now - 1), code(now + 60_000), form(now - 1), form(now + 60_000)]);
    const gone = await refresh(now - 1);
    const goneWithExpiredAccess = await refresh(now - 1, now - 1);
    const heldByAccess = await refresh(now - 1, now + 60_000);
    const valid = await refresh(now + 60_000);
    const result = await sweep();
    expect(result.removed['expired OAuth authorization codes']).toBe(1);
    expect(result.removed['expired OAuth sign-in forms']).toBe(1);
    expect(result.removed['expired OAuth refresh tokens']).toBe(2);
    expect(await count('oauth_codes WHERE expires > $1', [now])).toBe(1);
    expect(await count('oauth_codes')).toBe(1);
    expect(await count('oauth_sign_in_forms')).toBe(1);
    expect(await count('oauth_refresh_tokens WHERE token_hash = ANY($1)', [[gone, goneWithExpiredAccess]])).toBe(0);
    expect(await count('oauth_refresh_tokens WHERE token_hash = ANY($1)', [[heldByAccess, valid]])).toBe(2);
    expect(await count('tokens WHERE refresh_hash = $1', [heldByAccess])).toBe(1);
  });
});

describe('uploads, jobs, proxy windows and files', () => {
  let s: Awaited<ReturnType<typeof service>>;
  // Files are aged by their real modification time: this clock starts at the real time.
  const START = Date.now();
  beforeAll(async () => {
    s = await service({}, START);
  });
  afterAll(() => s.svc.close());

  it('cancels uploads abandoned for the limit with their parts and blobs; an active upload and a finished item stay', async () => {
    const { svc, clock, post, addItem, count, sweep } = s;
    const ctx = svc.app.portal;
    const start = async () => (await post('content/users/admin/addItem', { multipart: 'true', filename: 'data.bin' })).id as string;
    const addPart = async (id: string, n: number) =>
      expect(
        await multipartForm(svc, `content/users/admin/items/${id}/addPart?partNum=${n}&token=${await svc.tokenFor('admin')}`, {
          file: [new Blob([`part ${n}`]), 'blob'],
        }),
      ).toEqual({ success: true, id });
    const abandoned = await start();
    await addPart(abandoned, 1);
    await addPart(abandoned, 2);
    const finished = await addItem('finished');
    clock.t += 2 * HOUR;
    const active = await start();
    await addPart(active, 1);
    const parts = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM item_parts WHERE item_id = $1', [abandoned]);
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => existsSync(onDisk(ctx.blobs).localPath(p.blob_key)))).toBe(true);

    clock.t = START + 25 * HOUR;
    const result = await sweep();
    expect(result.removed['abandoned multipart uploads']).toBe(1);
    expect(await count('items WHERE id = $1', [abandoned])).toBe(0);
    expect(await count('item_parts WHERE item_id = $1', [abandoned])).toBe(0);
    expect(parts.some((p) => existsSync(onDisk(ctx.blobs).localPath(p.blob_key)))).toBe(false);
    const [event] = await svc.db.query<{ user_id: string | null; properties: Record<string, unknown> }>(
      `SELECT user_id, properties FROM events WHERE subject_id = $1 AND operation = 'delete'`,
      [abandoned],
    );
    expect(event).toEqual({ user_id: null, properties: { cancelledUpload: true, abandoned: true } });
    expect(await count('items WHERE id = ANY($1)', [[active, finished]])).toBe(2);
    expect(await count('item_parts WHERE item_id = $1', [active])).toBe(1);
  });

  it('removes finished item jobs past the limit; queued and recent ones stay', async () => {
    const { svc, clock, addItem, count, sweep } = s;
    const item = await addItem('job target');
    const job = (state: string, updated: number) =>
      svc.db.query('INSERT INTO item_jobs (id, item_id, kind, state, created, updated) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id', [
        randomUUID(),
        item,
        'test',
        state,
        updated,
      ]);
    const old = clock.t - 8 * DAY;
    const [[done], [failed], [queued], [recent]] = await Promise.all([
      job('done', old),
      job('failed', old),
      job('queued', old),
      job('done', clock.t - 6 * DAY),
    ]);
    const result = await sweep();
    expect(result.removed['finished item jobs']).toBe(2);
    expect(await count('item_jobs WHERE id = ANY($1)', [[done.id, failed.id]])).toBe(0);
    expect(await count('item_jobs WHERE id = ANY($1)', [[queued.id, recent.id]])).toBe(2);
  });

  it('removes proxy hit windows once they ended (or the proxy is gone)', async () => {
    const { svc, clock, addItem, count, sweep } = s;
    const proxied = await addItem('proxied');
    const plain = await addItem('no proxy');
    await svc.db.query(`UPDATE items SET service_proxy = $2 WHERE id = $1`, [
      proxied,
      JSON.stringify({ hitsPerInterval: 10, intervalSeconds: 60, referrers: [] }),
    ]);
    const hits = (item: string, start: number) => svc.db.query('INSERT INTO proxy_hits (item_id, window_start, hits) VALUES ($1, $2, 3)', [item, start]);
    await hits(proxied, clock.t - 120_000);
    await hits(proxied, clock.t - 30_000);
    await hits(plain, clock.t - 30_000);
    expect((await sweep()).removed['proxy hit windows']).toBe(2);
    expect(await svc.db.query('SELECT item_id, window_start FROM proxy_hits')).toEqual([{ item_id: proxied, window_start: clock.t - 30_000 }]);
    expect(await count('proxy_hits')).toBe(1);
  });

  it('removes temporary files untouched for the limit, but not a request body being received', async () => {
    const { svc, clock, sweep } = s;
    const ctx = svc.app.portal;
    clock.t = Date.now();
    await mkdir(ctx.tmpDir, { recursive: true });
    const orphan = path.join(ctx.tmpDir, randomUUID());
    const recent = path.join(ctx.tmpDir, randomUUID());
    await writeFile(orphan, 'left by a crash');
    await writeFile(recent, 'an hour old');
    const age = (file: string, ms: number) => utimes(file, new Date(clock.t - ms), new Date(clock.t - ms));
    await age(orphan, 25 * HOUR);
    await age(recent, HOUR);

    // A real upload over HTTP, held open half-way while the sweep runs; its token after the file, as
    // rest-js sends it, so that the file is spooled (with the token first it is written in its place).
    const rest = await svc.listen();
    const token = await svc.tokenFor('admin');
    const boundary = `----soak${randomUUID()}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="f"\r\n\r\njson\r\n--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nslow\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nCSV\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const tail = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n--${boundary}--\r\n`;
    let release!: () => void;
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(head);
        yield Buffer.alloc(64 * 1024, 97);
        await new Promise<void>((r) => (release = r));
        yield Buffer.alloc(1024, 98);
        yield Buffer.from(tail);
      })(),
    );
    const before = new Set(await readdir(ctx.tmpDir));
    const answer = fetch(`${rest}/content/users/admin/addItem`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit).then((r) => r.json());
    let receiving: string | undefined;
    for (let i = 0; i < 200 && !receiving; i++) {
      await new Promise((r) => setTimeout(r, 25));
      receiving = (await readdir(ctx.tmpDir)).find((f) => !before.has(f));
    }
    expect(receiving).toBeDefined();

    const result = await sweep();
    expect(result.removed['temporary files']).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(path.join(ctx.tmpDir, receiving!))).toBe(true);
    release();
    const added = await answer;
    expect(added.success, JSON.stringify(added)).toBe(true);
    const [row] = await svc.db.query<{ size: number }>('SELECT size FROM items WHERE id = $1', [added.id]);
    expect(row.size).toBe(64 * 1024 + 1024);
  });

  it('removes blob files no row refers to and unfinished writes, once old; referenced files stay', async () => {
    const { svc, clock, sweep } = s;
    const ctx = svc.app.portal;
    clock.t = Date.now();
    const token = await svc.tokenFor('admin');
    const added = await multipartForm(svc, `content/users/admin/addItem?token=${token}`, {
      title: 'kept file',
      type: 'CSV',
      file: [new Blob(['a,b\n1,2\n']), 'kept.csv'],
    });
    expect(added.success).toBe(true);
    const [{ data_blob: kept }] = await svc.db.query<{ data_blob: string }>('SELECT data_blob FROM items WHERE id = $1', [added.id]);
    const stray = ctx.blobs.newKey();
    const young = ctx.blobs.newKey();
    await ctx.blobs.write(stray, Readable.from([Buffer.from('left behind')]));
    await ctx.blobs.write(young, Readable.from([Buffer.from('just written, row not yet committed')]));
    const partial = `${onDisk(ctx.blobs).localPath(stray)}.${randomUUID()}.partial`;
    await writeFile(partial, 'half');
    const old = new Date(clock.t - 25 * HOUR);
    for (const f of [onDisk(ctx.blobs).localPath(kept), onDisk(ctx.blobs).localPath(stray), partial]) await utimes(f, old, old);

    const result = await sweep();
    expect(result.removed['stray blob files']).toBe(2);
    expect(existsSync(onDisk(ctx.blobs).localPath(stray))).toBe(false);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(onDisk(ctx.blobs).localPath(kept))).toBe(true);
    expect(existsSync(onDisk(ctx.blobs).localPath(young))).toBe(true);
    // Walked at most every six hours when the loop keeps the times of the last runs.
    const lastRun = new Map<string, number>();
    await sweep({ lastRun });
    await utimes(onDisk(ctx.blobs).localPath(young), old, old);
    expect((await sweep({ lastRun })).removed['stray blob files']).toBeUndefined();
    expect(existsSync(onDisk(ctx.blobs).localPath(young))).toBe(true);
  });

  it('runs in the background loop and stops cleanly', async () => {
    const { svc, clock, count } = s;
    const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    await svc.db.query('INSERT INTO tokens (token_hash, user_id, created, expires) VALUES ($1, $2, $3, $3)', [
      randomBytes(16).toString('hex'),
      admin.id,
      clock.t - 1,
    ]);
    svc.app.portal.config.retention = { ...RETENTION_DEFAULTS, sweepIntervalMs: 50 };
    const loop = startRetentionSweeps(svc.app.portal);
    for (let i = 0; i < 200 && (await count('tokens WHERE expires <= $1', [clock.t])) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    await loop.stop();
    expect(await count('tokens WHERE expires <= $1', [clock.t])).toBe(0);
  });
});
