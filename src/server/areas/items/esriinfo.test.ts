/**
 * esriinfo extraction (item card, info files, detection by first bytes), its safety limits (paths
 * leaving the folder, symbolic links, entry count, total size, compression ratio, lying headers),
 * and thumbnails (upload on update, renditions at 200/400/800/2400, cached).
 */
import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { ESRIINFO_DEFAULTS, type EsriInfoSettings } from '../../config.ts';
import { parseItemCard, safeRelativePath } from './esriinfo.ts';
import { get, getJson, insertItem, postMultipart } from './manage.test-support.ts';
import { zip } from '../../../../test/support/zip.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let png600: Buffer;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1']) tokens[u] = await svc.tokenFor(u);
  png600 = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
});
afterAll(() => svc.close());
afterEach(() => {
  delete svc.config.esriInfo;
});
/** The service's esriinfo bounds, some overridden, as a Config would give them. */
const esriInfoBounds = (bounds: Partial<EsriInfoSettings>) => {
  svc.config.esriInfo = { ...ESRIINFO_DEFAULTS, ...bounds };
};

const CARD = `<?xml version="1.0" encoding="utf-8"?>
<ESRI_ItemInformation Culture="en-US">
  <name>parks_pkg</name>
  <title>City Parks &amp; Trails</title>
  <thumbnail>thumbnail/thumb.png</thumbnail>
  <documentation>docs/readme.txt</documentation>
  <tags>parks</tags>
</ESRI_ItemInformation>`;

const goodPackage = () =>
  zip([
    { name: 'esriinfo/', data: Buffer.alloc(0) },
    { name: 'esriinfo/iteminfo.xml', data: Buffer.from(CARD), deflate: true },
    { name: 'esriinfo/thumbnail/thumb.png', data: png600 },
    { name: 'esriinfo/docs/readme.txt', data: Buffer.from('Read me'), deflate: true },
    { name: 'v107/parks.gdb', data: Buffer.from('not extracted') },
  ]);

async function upload(file: Buffer, filename: string, fields: Record<string, string> = {}) {
  const id = await insertItem(svc, 'user1', { title: 'Untitled', access: 'public' });
  const body = await postMultipart(svc, `content/users/user1/items/${id}/update`, { ...fields, file: { filename, content: file } }, tokens.user1);
  return { id, body };
}
const infoFiles = async (id: string) =>
  (await svc.db.query<{ path: string }>('SELECT path FROM item_info_files WHERE item_id = $1 ORDER BY path', [id])).map((r) => r.path);

describe('esriinfo extraction', () => {
  it('extracts every file under esriinfo/ and sets name, title, thumbnail and documentation from the card', async () => {
    const { id, body } = await upload(goodPackage(), 'parks.sd');
    expect(body).toEqual({ success: true, id });
    expect(await infoFiles(id)).toEqual(['docs/readme.txt', 'iteminfo.xml', 'thumbnail/thumb.png']);
    const item = await getJson(svc, `content/items/${id}`);
    expect(item).toMatchObject({ name: 'parks_pkg', title: 'City Parks & Trails', thumbnail: 'thumbnail/thumb.png', documentation: 'docs/readme.txt' });
    const card = await get(svc, `content/items/${id}/info/iteminfo.xml`);
    expect(card.body).toBe(CARD);
    expect(card.headers['content-type']).toMatch(/^text\/xml/);
    expect((await get(svc, `content/items/${id}/info/docs/readme.txt`)).body).toBe('Read me');
    expect((await getJson(svc, `content/items/${id}/info/v107/parks.gdb`)).error.code).toBe(404);
  });

  it('a title sent with the file wins over the card', async () => {
    const { id } = await upload(goodPackage(), 'parks.sd', { title: 'Mine' });
    expect((await getJson(svc, `content/items/${id}`)).title).toBe('Mine');
  });

  it('recognises a zip by its first bytes, not its name', async () => {
    const { id } = await upload(goodPackage(), 'download.bin');
    expect(await infoFiles(id)).toHaveLength(3);
    const { id: fake, body } = await upload(Buffer.from('just text, not a zip'), 'fake.zip');
    expect(body.success).toBe(true);
    expect(await infoFiles(fake)).toEqual([]);
    const { id: broken, body: b2 } = await upload(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]), 'broken.zip');
    expect(b2.success).toBe(true);
    expect(await infoFiles(broken)).toEqual([]);
  });

  it.each([
    ['esriinfo/../evil.txt', 'a .. segment'],
    ['esriinfo/a/../../evil.txt', 'a nested .. segment'],
    ['/etc/esriinfo/x', 'an absolute path'],
    ['esriinfo\\..\\evil.txt', 'backslashes'],
  ])('refuses an archive with %s (%s), storing nothing', async (name) => {
    const { id, body } = await upload(
      zip([
        { name: 'esriinfo/iteminfo.xml', data: Buffer.from(CARD) },
        { name, data: Buffer.from('x') },
      ]),
      'bad.zip',
    );
    expect(body.error).toMatchObject({ code: 400, message: expect.stringMatching(/unsafe/) });
    expect(await infoFiles(id)).toEqual([]);
    const item = await getJson(svc, `content/items/${id}`);
    expect(item).toMatchObject({ title: 'Untitled', size: 0 });
  });

  it('refuses a symbolic link under esriinfo/', async () => {
    const { body } = await upload(zip([{ name: 'esriinfo/link', data: Buffer.from('/etc/passwd'), symlink: true }]), 'link.zip');
    expect(body.error.details[0]).toMatch(/symbolic link/);
  });

  it(`takes ${ESRIINFO_DEFAULTS.maxEntries} entries under esriinfo/, refuses one more`, async () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `esriinfo/f${i}.txt`, data: Buffer.from('x') }));
    const ok = await upload(zip(entries(ESRIINFO_DEFAULTS.maxEntries)), 'many.zip');
    expect(ok.body.success).toBe(true);
    expect(await infoFiles(ok.id)).toHaveLength(ESRIINFO_DEFAULTS.maxEntries);
    const over = await upload(zip(entries(ESRIINFO_DEFAULTS.maxEntries + 1)), 'toomany.zip');
    expect(over.body.error.details[0]).toMatch(/more than 1000 entries/);
  });

  it('bounds the total inflated size: at the limit taken, one byte over refused', async () => {
    const files = [
      { name: 'esriinfo/a.bin', data: Buffer.alloc(3000, 1) },
      { name: 'esriinfo/b.bin', data: Buffer.alloc(2000, 2) },
    ];
    esriInfoBounds({ maxTotalBytes: 5000 });
    expect((await upload(zip(files), 'at.zip')).body.success).toBe(true);
    esriInfoBounds({ maxTotalBytes: 4999 });
    expect((await upload(zip(files), 'over.zip')).body.error.details[0]).toMatch(/more than 4999 bytes/);
  });

  it('bounds the compression ratio per entry: at the limit taken, above refused', async () => {
    const data = Buffer.alloc(200_000, 0);
    const compressed = deflateRawSync(data).length;
    const ratio = Math.ceil(data.length / compressed);
    const entry = [{ name: 'esriinfo/zeros.bin', data, deflate: true }];
    esriInfoBounds({ maxRatio: ratio });
    expect((await upload(zip(entry), 'at.zip')).body.success).toBe(true);
    esriInfoBounds({ maxRatio: ratio - 1 });
    expect((await upload(zip(entry), 'over.zip')).body.error.details[0]).toMatch(/compressed more than/);
    // With the default 100:1, 200 KB of zeros (about 1000:1) is a bomb.
    delete svc.config.esriInfo;
    expect((await upload(zip(entry), 'bomb.zip')).body.error.code).toBe(400);
  });

  it('does not trust the headers: an entry that inflates beyond its declared size is refused', async () => {
    const data = Buffer.alloc(50_000, 7);
    const { id, body } = await upload(zip([{ name: 'esriinfo/liar.bin', data, deflate: true, declaredSize: 100 }]), 'liar.zip');
    expect(body.error).toMatchObject({ code: 400 });
    expect(await infoFiles(id)).toEqual([]);
  });

  it('safeRelativePath and parseItemCard', () => {
    expect(safeRelativePath('a/b.png')).toBe('a/b.png');
    for (const bad of ['', '../x', 'a/../x', 'a//b', '/x', 'C:/x', 'a\\b', 'a/./b', 'x\0y']) expect(safeRelativePath(bad)).toBeNull();
    expect(parseItemCard('<x><title><![CDATA[A <b> title]]></title><name>n&#65;</name></x>')).toEqual({ title: 'A <b> title', name: 'nA' });
  });
});

describe('thumbnails', () => {
  it('serves the package thumbnail at 200 (default), 400, 800 and 2400 wide (never enlarged), made once', async () => {
    const { id } = await upload(goodPackage(), 'parks.sd');
    const url = `content/items/${id}/info/thumbnail/thumb.png`;
    const first = await get(svc, url);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-thumbnail-rendition']).toBe('new');
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({ width: 200, height: 133 });
    const again = await get(svc, url);
    expect(again.headers['x-thumbnail-rendition']).toBe('cached');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await sharp((await get(svc, url, { w: '400' })).rawPayload).metadata()).width).toBe(400);
    expect((await sharp((await get(svc, url, { w: '2400' })).rawPayload).metadata()).width).toBe(600);
    expect((await getJson(svc, url, { w: '300' })).error.details[0]).toMatch(/^'w' must be one of: 200, 400, 800, 2400/);
  });

  it('takes an uploaded thumbnail on update; refuses what is not an image', async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    const body = await postMultipart(
      svc,
      `content/users/user1/items/${id}/update`,
      { thumbnail: { filename: 'my pic.png', content: png600, type: 'image/png' } },
      tokens.user1,
    );
    expect(body.success).toBe(true);
    const item = await getJson(svc, `content/items/${id}`, {}, tokens.user1);
    expect(item.thumbnail).toBe('thumbnail/my_pic.png');
    const res = await get(svc, `content/items/${id}/info/${item.thumbnail}`, { w: '800' }, tokens.user1);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(600);
    // Not visible to anonymous callers (the item is the organization's).
    expect((await getJson(svc, `content/items/${id}/info/${item.thumbnail}`)).error.messageCode).toBe('CONT_0001');
    const bad = await postMultipart(
      svc,
      `content/users/user1/items/${id}/update`,
      { thumbnail: { filename: 'x.png', content: Buffer.from('<svg/>') } },
      tokens.user1,
    );
    expect(bad.error.details[0]).toMatch(/^'thumbnail'/);
    // A thumbnail string (a fetched item sent back) changes nothing.
    expect((await svc.post(`content/users/user1/items/${id}/update`, { thumbnail: 'thumbnail/other.png' }, tokens.user1)).success).toBe(true);
    expect((await getJson(svc, `content/items/${id}`, {}, tokens.user1)).thumbnail).toBe('thumbnail/my_pic.png');
  });

  it('a new thumbnail replaces the cached renditions', async () => {
    const id = await insertItem(svc, 'user1', { access: 'public' });
    await postMultipart(svc, `content/users/user1/items/${id}/update`, { thumbnail: { filename: 't.png', content: png600 } }, tokens.user1);
    const red = (await get(svc, `content/items/${id}/info/thumbnail/t.png`)).rawPayload;
    const blue = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .png()
      .toBuffer();
    await postMultipart(svc, `content/users/user1/items/${id}/update`, { thumbnail: { filename: 't.png', content: blue } }, tokens.user1);
    const now = await get(svc, `content/items/${id}/info/thumbnail/t.png`);
    expect(now.headers['x-thumbnail-rendition']).toBe('new');
    expect(now.rawPayload.equals(red)).toBe(false);
    expect((await sharp(now.rawPayload).metadata()).height).toBe(200);
  });
});

describe('thumbnailUrl', () => {
  it('fetches the image through the outbound guard; a failed fetch or a non-image is 400 naming thumbnailUrl; nothing is fetched for a caller who may not change the item', async () => {
    const { createServer } = await import('node:http');
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/pic.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png600);
      else if (req.url === '/text.png') res.writeHead(200).end('not an image');
      else if (req.url === '/moved.png') res.writeHead(302, { location: '/pic.png' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const id = await insertItem(svc, 'user1', { access: 'public' });
      const update = (url: string, who = 'user1') => svc.post(`content/users/user1/items/${id}/update`, { thumbnailUrl: url }, tokens[who]);
      expect((await update(`${base}/pic.png`)).success).toBe(true);
      expect((await getJson(svc, `content/items/${id}`)).thumbnail).toBe('thumbnail/pic.png');
      expect((await sharp((await get(svc, `content/items/${id}/info/thumbnail/pic.png`)).rawPayload).metadata()).width).toBe(200);
      for (const bad of [`${base}/missing.png`, `${base}/moved.png`, `${base}/text.png`, 'ftp://example.com/x.png', 'not a url']) {
        expect((await update(bad)).error.details[0], bad).toMatch(/^'thumbnailUrl'/);
      }
      const before = hits.length;
      expect((await update(`${base}/pic.png`, 'publisher1')).error.code).toBe(403);
      expect(hits.length).toBe(before);
      // This item's own thumbnail URL (a fetched item sent back) is not fetched.
      expect((await update(`${svc.restUrl || 'http://x/sharing/rest'}/content/items/${id}/info/thumbnail/pic.png`)).success).toBe(true);
      expect(hits.length).toBe(before);
    } finally {
      server.close();
    }
  });
});

describe('addItem with a package', () => {
  it('extracts esriinfo/ when the item is added with the file', async () => {
    const body = await postMultipart(
      svc,
      'content/users/user1/addItem',
      { type: 'Service Definition', title: 'Parks package', file: { filename: 'parks.sd', content: goodPackage() } },
      tokens.user1,
    );
    expect(body.success, JSON.stringify(body)).toBe(true);
    const id = body.id as string;
    expect(await infoFiles(id)).toEqual(['docs/readme.txt', 'iteminfo.xml', 'thumbnail/thumb.png']);
    expect(await getJson(svc, `content/items/${id}`, {}, tokens.user1)).toMatchObject({
      title: 'Parks package',
      name: 'parks_pkg',
      thumbnail: 'thumbnail/thumb.png',
      documentation: 'docs/readme.txt',
    });
    // The owner's view of the item lists what info/ serves (a local-portal extra).
    expect((await getJson(svc, `content/users/user1/items/${id}`, {}, tokens.user1)).infoFiles).toEqual([
      'docs/readme.txt',
      'iteminfo.xml',
      'thumbnail/thumb.png',
    ]);
    const bad = await postMultipart(
      svc,
      'content/users/user1/addItem',
      { type: 'Service Definition', title: 'Bad', file: { filename: 'bad.sd', content: zip([{ name: 'esriinfo/../x', data: Buffer.from('x') }]) } },
      tokens.user1,
    );
    expect(bad.error.code).toBe(400);
  });
});

describe('an item card that is not XML', () => {
  // Character references to characters XML does not allow (NUL, other C0 controls, surrogates,
  // U+FFFE/FFFF, beyond U+10FFFF), and such characters written raw.
  const badTitles = [
    'A&#0;B',
    '&#x0;',
    '&#1;',
    '&#x1F;',
    '&#xD800;',
    '&#xFFFE;',
    '&#65535;',
    '&#x110000;',
    '&#99999999999999999999;',
    'raw\u0000nul',
    'raw\u0008bs',
  ];
  const card = (title: string) => `<?xml version="1.0"?><ESRI_ItemInformation><name>n</name><title>${title}</title></ESRI_ItemInformation>`;
  const pkg = (title: string) => zip([{ name: 'esriinfo/iteminfo.xml', data: Buffer.from(card(title)), deflate: true }]);

  it.each(badTitles)('%j in iteminfo.xml: update answers 400 in the envelope, nothing changes or stays behind', async (title) => {
    const { id, body } = await upload(pkg(title), 'bad.sd');
    expect(body.error, JSON.stringify(body)).toMatchObject({ code: 400, fieldErrors: { file: expect.stringMatching(/iteminfo\.xml/) } });
    expect(await infoFiles(id)).toEqual([]);
    expect((await getJson(svc, `content/items/${id}`)).title).toBe('Untitled');
  });

  it('addItem with such a package answers 400 and adds no item', async () => {
    const before = await svc.db.query<{ n: string }>('SELECT count(*) AS n FROM items');
    const body = await postMultipart(
      svc,
      'content/users/user1/addItem',
      { type: 'Service Definition', title: 'NUL card', file: { filename: 'nul.sd', content: pkg('A&#0;B') } },
      tokens.user1,
    );
    expect(body.error, JSON.stringify(body)).toMatchObject({ code: 400 });
    expect(await svc.db.query<{ n: string }>('SELECT count(*) AS n FROM items')).toEqual(before);
  });

  it('the characters XML allows pass, by reference or raw', async () => {
    const { id, body } = await upload(pkg('Tab&#9;line&#xA;&#x1F600;&#xE000;&#xFFFD;é'), 'ok.sd');
    expect(body.success, JSON.stringify(body)).toBe(true);
    expect((await getJson(svc, `content/items/${id}`)).title).toBe('Tab\tline\n😀\uE000\uFFFDé');
  });
});

describe('info/<path> is decoded once', () => {
  it.each(['%25', '%25zz', 'a%25E0%25A4', '%2525'])('info/%s answers a 404 in the envelope, not a 500', async (rest) => {
    const { id } = await upload(goodPackage(), 'parks.sd');
    const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${id}/info/${rest}?f=json` });
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toMatchObject({ code: 404 });
  });

  it('a file whose name holds % or a space is served by its once-encoded path', async () => {
    const { id } = await upload(
      zip([
        { name: 'esriinfo/100% done.txt', data: Buffer.from('percent') },
        { name: 'esriinfo/iteminfo.xml', data: Buffer.from(CARD) },
      ]),
      'p.sd',
    );
    expect((await get(svc, `content/items/${id}/info/100%25%20done.txt`)).body).toBe('percent');
  });
});

describe('addItem with a thumbnail', () => {
  it('an uploaded image or an image URL becomes the thumbnail; both at once, or a non-image, is a 400 and no item is added', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) =>
      req.url === '/pic.png' ? res.writeHead(200, { 'content-type': 'image/png' }).end(png600) : res.writeHead(404).end(),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const count = async () => Number((await svc.db.query<{ n: string }>("SELECT count(*) AS n FROM items WHERE title LIKE 'Thumb test%'"))[0].n);
    try {
      const uploaded = await postMultipart(
        svc,
        'content/users/user1/addItem',
        { type: 'Web Map', title: 'Thumb test 1', text: '{}', thumbnail: { filename: 'cover.png', content: png600, type: 'image/png' } },
        tokens.user1,
      );
      expect(uploaded.success, JSON.stringify(uploaded)).toBe(true);
      expect((await getJson(svc, `content/items/${uploaded.id}`, {}, tokens.user1)).thumbnail).toBe('thumbnail/cover.png');
      const fetched = await svc.post('content/users/user1/addItem', { type: 'Web Map', title: 'Thumb test 2', thumbnailUrl: `${base}/pic.png` }, tokens.user1);
      expect(fetched.success, JSON.stringify(fetched)).toBe(true);
      const item = await getJson(svc, `content/items/${fetched.id}`, {}, tokens.user1);
      expect(item.thumbnail).toBe('thumbnail/pic.png');
      expect((await sharp((await get(svc, `content/items/${fetched.id}/info/${item.thumbnail}`, {}, tokens.user1)).rawPayload).metadata()).width).toBe(200);
      expect(await count()).toBe(2);
      const both = await postMultipart(
        svc,
        'content/users/user1/addItem',
        { type: 'Web Map', title: 'Thumb test 3', thumbnailUrl: `${base}/pic.png`, thumbnail: { filename: 'c.png', content: png600 } },
        tokens.user1,
      );
      expect(both.error.details[0]).toMatch(/^'thumbnailUrl'/);
      const notImage = await postMultipart(
        svc,
        'content/users/user1/addItem',
        { type: 'Web Map', title: 'Thumb test 4', thumbnail: { filename: 'c.png', content: Buffer.from('<svg/>') } },
        tokens.user1,
      );
      expect(notImage.error.details[0]).toMatch(/^'thumbnail'/);
      const missing = await svc.post(
        'content/users/user1/addItem',
        { type: 'Web Map', title: 'Thumb test 5', thumbnailUrl: `${base}/missing.png` },
        tokens.user1,
      );
      expect(missing.error.details[0]).toMatch(/^'thumbnailUrl'/);
      expect(await count()).toBe(2);
    } finally {
      server.close();
    }
  });
});
