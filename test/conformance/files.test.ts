/**
 * Item files through Esri's client (and plain fetch where rest-js has no call): a multipart upload
 * sent out of order, ranged reads of the joined file, a package's esriinfo/ files, a thumbnail and
 * its renditions, the service proxy's rate limit, a report task's output, and deletion.
 *
 * In process it checks the wire. Scaled out (PORTAL_SCALE_OUT=2, scripts/scale-out-check.sh) every
 * request goes to the next instance in turn, so each step reads on one instance what another
 * wrote: the parts of one upload land on different instances, and every read is repeated so that
 * each instance answers it. That only passes when files live in the shared blob store and shared
 * state (proxy hit counts) in PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { addItemPart, commitItemUpload, createItem, getItem, getItemData, getItemInfo, getItemStatus, removeItem, updateItem } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskScheduler } from '../../src/server/jobs/scheduler.ts';
import { scaleOutInstances } from '../support/scaleOut.ts';
import { startService, type TestService } from '../support/service.ts';
import { signInDemo } from '../support/rest-js.ts';
import { zip } from '../support/zip.ts';

let svc: TestService;
let portal: string;
let user1: ArcGISIdentityManager;
let admin: ArcGISIdentityManager;
/** For plain fetch: rest-js's own token is bound to the referer it signed in with. */
let token: string;
/** Every read is made this many times: through the balancer, each instance answers at least once. */
const EVERY_INSTANCE = Math.max(2, scaleOutInstances());

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [user1, admin] = await signInDemo(portal, 'user1', 'admin');
  token = await svc.tokenFor('user1');
});
afterAll(() => svc.close());

const MiB = 1024 * 1024;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${portal}/${path}`, { headers });
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

/** The blob keys the item's rows name (data, info files, thumbnail renditions). */
async function storedKeys(itemId: string): Promise<string[]> {
  const rows = await svc.db.query<{ key: string }>(
    `SELECT data_blob AS key FROM items WHERE id = $1 AND data_blob IS NOT NULL
     UNION ALL SELECT blob_key FROM item_info_files WHERE item_id = $1
     UNION ALL SELECT blob_key FROM item_thumbnail_renditions WHERE item_id = $1`,
    [itemId],
  );
  return rows.map((r) => r.key);
}

describe('a multipart upload, parts sent out of order', () => {
  // Two parts above S3's 5 MiB minimum for all but the last part, and a small last one.
  const parts = [randomBytes(5 * MiB + 17), randomBytes(5 * MiB + 3), randomBytes(1000)];
  const whole = Buffer.concat(parts);
  let id: string;

  it('addItem multipart, addPart 2, 1, 3, commit: the data reads back byte for byte', async () => {
    const started = await createItem({ item: { title: 'Big upload', type: 'CSV' }, multipart: true, filename: 'big.csv', authentication: user1 });
    expect(started).toMatchObject({ success: true, id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    id = started.id;
    for (const partNum of [2, 1, 3]) {
      const file = new File([parts[partNum - 1]], `big.csv.${partNum}`);
      expect(await addItemPart({ id, owner: 'user1', file, partNum, authentication: user1 })).toEqual({ success: true, id });
    }
    expect(await commitItemUpload({ id, owner: 'user1', item: { title: 'Big upload', type: 'CSV' }, authentication: user1 })).toMatchObject({
      success: true,
      id,
    });
    expect(await getItem(id, { authentication: user1 })).toMatchObject({ id, size: whole.length });
    for (let i = 0; i < EVERY_INSTANCE; i++) {
      const data = (await getItemData(id, { authentication: user1, file: true })) as Blob;
      expect(Buffer.from(await data.arrayBuffer()).equals(whole)).toBe(true);
    }
  });

  it('a Range read across the boundary of parts 1 and 2 answers 206 with those bytes', async () => {
    const start = parts[0].length - 10;
    const end = parts[0].length + 9;
    for (let i = 0; i < EVERY_INSTANCE; i++) {
      const res = await get(`content/items/${id}/data?token=${token}`, { Range: `bytes=${start}-${end}` });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${whole.length}`);
      expect((await bytesOf(res)).equals(whole.subarray(start, end + 1))).toBe(true);
    }
  });

  it('a Range past the end is 416', async () => {
    const res = await get(`content/items/${id}/data?token=${token}`, { Range: `bytes=${whole.length}-` });
    expect(res.status).toBe(416);
    await res.arrayBuffer();
  });

  it('commit with a part missing names the gap and joins nothing; with the part sent, it succeeds', async () => {
    const started = await createItem({ item: { title: 'Gappy', type: 'CSV' }, multipart: true, filename: 'gap.csv', authentication: user1 });
    await addItemPart({ id: started.id, owner: 'user1', file: new File(['one'], 'gap.csv.1'), partNum: 1, authentication: user1 });
    await addItemPart({ id: started.id, owner: 'user1', file: new File(['three'], 'gap.csv.3'), partNum: 3, authentication: user1 });
    const err = await commitItemUpload({ id: started.id, owner: 'user1', item: { title: 'Gappy', type: 'CSV' }, authentication: user1 }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ArcGISRequestError', code: 400 });
    expect((err as { response: { error: { details: string[] } } }).response.error.details).toEqual(['Missing part numbers: 2']);
    // Nothing was joined: the upload can still be completed by sending the missing part.
    expect(await getItemStatus({ id: started.id, owner: 'user1', authentication: user1 })).toMatchObject({ status: 'partial' });
    await addItemPart({ id: started.id, owner: 'user1', file: new File(['two'], 'gap.csv.2'), partNum: 2, authentication: user1 });
    await commitItemUpload({ id: started.id, owner: 'user1', item: { title: 'Gappy', type: 'CSV' }, authentication: user1 });
    expect(await (await get(`content/items/${started.id}/data?token=${token}`)).text()).toBe('onetwothree');
  });
});

describe('a package with esriinfo/', () => {
  const card = `<?xml version="1.0" encoding="utf-8"?>
<ESRI_ItemInformation Culture="en-US">
  <name>trails_pkg</name>
  <title>Trails</title>
  <thumbnail>thumbnail/thumb.png</thumbnail>
  <documentation>docs/readme.txt</documentation>
</ESRI_ItemInformation>`;
  let id: string;
  let thumb: Buffer;

  beforeAll(async () => {
    thumb = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 20, g: 120, b: 40 } } })
      .png()
      .toBuffer();
  });

  it('addItem with the file: every instance serves the card, the documentation and the thumbnail', async () => {
    const pkg = zip([
      { name: 'esriinfo/' },
      { name: 'esriinfo/iteminfo.xml', data: Buffer.from(card) },
      { name: 'esriinfo/docs/readme.txt', data: Buffer.from('Stay on the trail.') },
      { name: 'esriinfo/thumbnail/thumb.png', data: thumb },
      { name: 'v107/trails.gdb', data: Buffer.from('not extracted') },
    ]);
    const res = await createItem({
      item: { title: 'Trails package', type: 'Service Definition' },
      file: new File([new Uint8Array(pkg)], 'trails.sd'),
      authentication: user1,
    });
    expect(res.success).toBe(true);
    id = res.id;
    expect(await getItem(id, { authentication: user1 })).toMatchObject({
      name: 'trails_pkg',
      thumbnail: 'thumbnail/thumb.png',
      documentation: 'docs/readme.txt',
    });
    for (let i = 0; i < EVERY_INSTANCE; i++) {
      expect(await getItemInfo(id, { authentication: user1 })).toBe(card);
      expect(await getItemInfo(id, { fileName: 'docs/readme.txt', authentication: user1 })).toBe('Stay on the trail.');
      const png = await get(`content/items/${id}/info/thumbnail/thumb.png?token=${token}`);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect((await sharp(await bytesOf(png)).metadata()).width).toBe(200);
    }
  });

  it('a file the package does not hold is 404 in the envelope', async () => {
    const res = await get(`content/items/${id}/info/docs/other.txt?f=json&token=${token}`);
    expect((await res.json()).error).toMatchObject({ code: 404 });
  });
});

describe('a thumbnail set by update', () => {
  let id: string;
  let image: Buffer;

  it('update with an image: its renditions are made once and served alike by every instance', async () => {
    image = await sharp({ create: { width: 1000, height: 500, channels: 3, background: { r: 10, g: 10, b: 200 } } })
      .png()
      .toBuffer();
    id = (await createItem({ item: { title: 'With a picture', type: 'Web Map' }, text: '{}', authentication: user1 })).id;
    const updated = await updateItem({
      item: { id },
      params: { thumbnail: new File([new Uint8Array(image)], 'pic.png', { type: 'image/png' }) },
      authentication: user1,
    });
    expect(updated).toEqual({ success: true, id });
    expect((await getItem(id, { authentication: user1 })).thumbnail).toBe('thumbnail/pic.png');
    for (const w of [200, 400]) {
      const answers = [];
      for (let i = 0; i < EVERY_INSTANCE + 1; i++) {
        const res = await get(`content/items/${id}/info/thumbnail/pic.png?w=${w}&token=${token}`);
        expect(res.status).toBe(200);
        answers.push({ made: res.headers.get('x-thumbnail-rendition'), bytes: await bytesOf(res) });
      }
      // Made by the first read, whichever instance; read from the store by every later one.
      expect(answers.map((a) => a.made)).toEqual(['new', ...Array(EVERY_INSTANCE).fill('cached')]);
      for (const a of answers) expect(a.bytes.equals(answers[0].bytes)).toBe(true);
      expect(await sharp(answers[0].bytes).metadata()).toMatchObject({ width: w, height: w / 2 });
    }
  });

  it('a width the API does not offer is refused, naming w', async () => {
    const res = await get(`content/items/${id}/info/thumbnail/pic.png?w=300&f=json&token=${token}`);
    expect((await res.json()).error.details[0]).toMatch(/^'w'/);
  });
});

describe('the service proxy', () => {
  let upstream: Server;
  let hits = 0;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      hits++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('hitsPerInterval holds across instances: the limit is counted once for all of them', async () => {
    const { port } = upstream.address() as AddressInfo;
    const item = await createItem({
      item: { title: 'Limited service', type: 'Map Service', url: `http://127.0.0.1:${port}/arcgis/rest/services/x/MapServer` },
      params: { service: { hitsPerInterval: 4, intervalSeconds: 60 } },
      authentication: user1,
    });
    expect(item.success).toBe(true);
    // The window is a wall-clock minute: start well inside one, so that all calls fall in it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 100));
    const proxied = () => get(`content/items/${item.id}/proxy?f=json&token=${token}`).then((r) => r.json());
    for (let i = 0; i < 4; i++) expect(await proxied()).toEqual({ ok: true });
    for (let i = 0; i < EVERY_INSTANCE; i++) expect((await proxied()).error).toMatchObject({ code: 429, messageCode: 'CONT_0049' });
    expect(hits).toBe(4);
  });
});

describe('a report task', () => {
  it('run now: the CSV item it makes is readable on every instance', async () => {
    const base = `${portal}/community/users/admin/tasks`;
    const created = await request(`${base}/createTask`, {
      authentication: admin,
      params: {
        type: 'ExecuteReport',
        title: 'Members report',
        parameters: { reportType: 'members' },
        minute: '0',
        hour: '3',
        dayOfMonth: '1',
        month: '1',
        dayOfWeek: '?',
      },
    });
    const { runId } = await request(`${base}/${created.taskId}/run`, { authentication: admin });
    let run: { status: string; result: string } = { status: 'scheduled', result: '' };
    for (let i = 0; i < 100 && !['succeeded', 'failed'].includes(run.status); i++) {
      // In process no scheduler runs on its own; scaled out, the instances' schedulers claim the run.
      if (!scaleOutInstances()) await new TaskScheduler(svc.app.portal).runDue();
      else await new Promise((r) => setTimeout(r, 200));
      run = await request(`${base}/${created.taskId}/runs/${runId}`, { authentication: admin, httpMethod: 'GET' });
    }
    expect(run).toMatchObject({ status: 'succeeded', result: expect.stringMatching(/^Created CSV item [0-9a-f]{32} with \d+ members\.$/) });
    const reportId = /item ([0-9a-f]{32})/.exec(run.result)![1];
    for (let i = 0; i < EVERY_INSTANCE; i++) {
      const csv = await ((await getItemData(reportId, { authentication: admin, file: true })) as Blob).text();
      expect(csv.split('\r\n')[0]).toBe('username,fullName,email,role,customRole,disabled,created,lastLogin');
      expect(csv).toContain('\r\nuser1,');
    }
  });
});

describe('deleting an item for good (permanentDelete: a plain delete keeps it in the recycle bin, files included)', () => {
  it('makes its files unreadable on every instance and removes them from the store', async () => {
    const pkg = zip([{ name: 'esriinfo/iteminfo.xml', data: Buffer.from('<ESRI_ItemInformation><title>Gone</title></ESRI_ItemInformation>') }]);
    const { id } = await createItem({
      item: { title: 'To delete', type: 'Service Definition' },
      file: new File([new Uint8Array(pkg)], 'gone.sd'),
      authentication: user1,
    });
    const keys = await storedKeys(id);
    expect(keys.length).toBe(2);
    for (const key of keys) await expect(svc.app.portal.blobs.open(key).then(buffer)).resolves.toBeInstanceOf(Buffer);
    expect(await removeItem({ id, authentication: user1, params: { permanentDelete: true } })).toMatchObject({ success: true, itemId: id });
    for (let i = 0; i < EVERY_INSTANCE; i++) {
      const data = await get(`content/items/${id}/data?f=json&token=${token}`);
      expect((await data.json()).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
      const info = await get(`content/items/${id}/info/iteminfo.xml?f=json&token=${token}`);
      expect((await info.json()).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    }
    for (const key of keys) await expect(svc.app.portal.blobs.open(key)).rejects.toThrow();
  });
});
