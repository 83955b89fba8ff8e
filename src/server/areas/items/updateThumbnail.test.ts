/**
 * Update Thumbnail (`content/users/<u>/items/<id>/updateThumbnail`): `file`, `url` or `data`
 * (base64 or a data: URI, as PortalItem.updateThumbnail sends it), with `filename`. The same limits,
 * image check and outbound guard as a thumbnail sent to `update`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_OUTBOUND_ALLOW, startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let png: Buffer;
let images: Server;
let imageUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  images = createServer((req, res) => {
    if (req.url === '/pic.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/pic.png`;
});
afterAll(async () => {
  images.close();
  await svc.close();
});

async function newItem(owner = 'user1'): Promise<string> {
  const body = await svc.post(`content/users/${owner}/addItem`, { title: 'Thumb', type: 'Web Map', text: '{}' }, tokens[owner]);
  expect(body.success).toBe(true);
  return body.id;
}

/** The item's thumbnail path and the bytes served there. */
async function thumbnailOf(id: string, token: string) {
  const item = await svc.post(`content/items/${id}`, {}, token);
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${id}/info/${item.thumbnail}?token=${token}` });
  return { thumbnail: item.thumbnail as string | null, status: res.statusCode, bytes: res.rawPayload };
}

describe('updateThumbnail', () => {
  it('takes a file part named by filename, and the item serves it', async () => {
    const id = await newItem();
    const body = await svc.postForm(
      `content/users/user1/items/${id}/updateThumbnail`,
      { file: [new Blob([new Uint8Array(png)]), 'upload.png'], filename: 'cover.png' },
      tokens.user1,
    );
    expect(body).toEqual({ success: true });
    const t = await thumbnailOf(id, tokens.user1);
    expect(t.thumbnail).toBe('thumbnail/cover.png');
    expect(t.status).toBe(200);
    expect(Buffer.compare(t.bytes, png)).toBe(0);
  });

  it('takes data as a data: URI (as the Maps SDK sends it) and as plain base64', async () => {
    const id = await newItem();
    expect(
      await svc.post(
        `content/users/user1/items/${id}/updateThumbnail`,
        { data: `data:image/png;base64,${png.toString('base64')}`, filename: 'inline.png' },
        tokens.user1,
      ),
    ).toEqual({
      success: true,
    });
    expect((await thumbnailOf(id, tokens.user1)).thumbnail).toBe('thumbnail/inline.png');
    expect(await svc.post(`content/users/user1/items/${id}/updateThumbnail`, { data: png.toString('base64') }, tokens.user1)).toEqual({ success: true });
    const t = await thumbnailOf(id, tokens.user1);
    expect(t.thumbnail).toBe('thumbnail/thumbnail.png');
    expect(Buffer.compare(t.bytes, png)).toBe(0);
  });

  it('fetches url through the outbound guard', async () => {
    const id = await newItem();
    expect(await svc.post(`content/users/user1/items/${id}/updateThumbnail`, { url: imageUrl }, tokens.user1)).toEqual({ success: true });
    expect((await thumbnailOf(id, tokens.user1)).thumbnail).toBe('thumbnail/pic.png');

    // With the production default, a loopback address is not fetched.
    const guarded = await startService({ config: { outboundAllow: NO_OUTBOUND_ALLOW } });
    try {
      const token = await guarded.tokenFor('user1');
      const made = await guarded.post('content/users/user1/addItem', { title: 'T', type: 'Web Map', text: '{}' }, token);
      const refused = await guarded.post(`content/users/user1/items/${made.id}/updateThumbnail`, { url: imageUrl }, token);
      expect(refused.error).toMatchObject({ code: 400 });
      const [row] = await guarded.db.query<{ thumbnail: string | null }>('SELECT thumbnail FROM items WHERE id = $1', [made.id]);
      expect(row.thumbnail).toBeNull();
    } finally {
      await guarded.close();
    }
  });

  it('by the owner’s id, as PortalItem builds the path for its owner', async () => {
    const id = await newItem();
    const me = await svc.post('community/self', {}, tokens.user1);
    expect(await svc.post(`content/users/${me.id}/items/${id}/updateThumbnail`, { data: png.toString('base64') }, tokens.user1)).toEqual({ success: true });
  });

  it('refuses bad input: nothing, two sources, not an image, bad base64', async () => {
    const id = await newItem();
    const path = `content/users/user1/items/${id}/updateThumbnail`;
    expect((await svc.post(path, {}, tokens.user1)).error).toMatchObject({ code: 400 });
    expect((await svc.post(path, { url: imageUrl, data: png.toString('base64') }, tokens.user1)).error).toMatchObject({ code: 400 });
    const text = await svc.post(path, { data: Buffer.from('not an image').toString('base64') }, tokens.user1);
    expect(text.error.details.join(' ')).toContain('PNG, JPEG, GIF or WebP');
    expect((await svc.post(path, { data: '%%%' }, tokens.user1)).error.details.join(' ')).toContain('base64');
    expect((await thumbnailOf(id, tokens.user1)).thumbnail).toBeNull();
  });

  it('only the owner or an administrator who updates items; unknown items and users are not found; GET is refused', async () => {
    const id = await newItem();
    const path = `content/users/user1/items/${id}/updateThumbnail`;
    // Another member: refused as update refuses them (the private item is out of their sight).
    const other = await svc.post(path, { data: png.toString('base64') }, tokens.publisher1);
    expect(other.error.code).toBe((await svc.post(`content/users/user1/items/${id}/update`, { title: 'x' }, tokens.publisher1)).error.code);
    expect([400, 403]).toContain(other.error.code);
    expect((await svc.post(path, { data: png.toString('base64') }, tokens.partner_admin)).error.code).toBeGreaterThanOrEqual(400);
    expect(await svc.post(path, { data: png.toString('base64') }, tokens.admin)).toEqual({ success: true });
    expect((await svc.post(path, { data: png.toString('base64') })).error.code).toBe(499);
    const missing = await svc.post(
      'content/users/user1/items/0123456789abcdef0123456789abcdef/updateThumbnail',
      { data: png.toString('base64') },
      tokens.user1,
    );
    expect(missing.error.code).toBe(400);
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json&token=${tokens.user1}` });
    expect(get.json().error.code).toBe(405);
  });
});
