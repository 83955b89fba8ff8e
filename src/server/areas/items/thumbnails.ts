/**
 * Item thumbnails (spec §2 Item, §8): an uploaded image kept as an info file (`thumbnail/<name>`),
 * served at widths 200 (default), 400, 800 or 2400. Each width is made once with sharp and kept
 * in the blob store (item_thumbnail_renditions).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import nodePath from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { badParam } from '../../http/errors.ts';
import { outboundRequest } from '../../http/outbound.ts';
import type { UploadedFile } from '../../http/params.ts';
import { readBlob } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { findRendition, insertRendition, putInfoFile } from './repo/infoFiles.ts';

export const THUMBNAIL_WIDTH_PARAM = z
  .union([z.number(), z.string().trim()])
  .transform((v) => Number(v))
  .refine((n) => (LIMITS.thumbnailWidths as readonly number[]).includes(n), `must be one of: ${LIMITS.thumbnailWidths.join(', ')}`);

/** Uploaded thumbnails larger than this are refused. */
export const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;
/** Images with more pixels than this are refused before decoding (a decompression bomb). */
const MAX_PIXELS = 50_000_000;
/** sharp (libvips, ~25 MB resident) loads with the first image, not with the service. */
const loadSharp = async () => (await import('sharp')).default;
const FORMATS: Record<string, { mime: string; ext: string }> = {
  png: { mime: 'image/png', ext: 'png' },
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
};

/**
 * What is read of a stored image into memory to serve or resize it (uploads are at most
 * THUMBNAIL_MAX_BYTES; a package's esriinfo thumbnail is bounded by Config esriInfo).
 */
const IMAGE_READ_MAX_BYTES = 64 * 1024 * 1024;

/** An image's format from its first bytes (renditions this service wrote). */
function formatOfBytes(b: Buffer): keyof typeof FORMATS | undefined {
  if (b.length >= 4 && b[0] === 0x89 && b.toString('latin1', 1, 4) === 'PNG') return 'png';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xd8) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 3 && b.toString('latin1', 0, 3) === 'GIF') return 'gif';
  return undefined;
}

/** The image's format if it is one a thumbnail may be; otherwise undefined. */
export async function imageFormat(input: string | Buffer): Promise<string | undefined> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    return meta.format && FORMATS[meta.format] && meta.width && meta.height ? meta.format : undefined;
  } catch {
    return undefined;
  }
}

const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);

/**
 * Stores an uploaded thumbnail for the item (inside the caller's transaction); answers its info
 * path, which becomes the item's `thumbnail`. Not an image → 400 naming `thumbnail`.
 */
export async function storeUploadedThumbnail(ctx: PortalContext, q: Queryable, itemId: string, file: UploadedFile): Promise<string> {
  if (file.size > THUMBNAIL_MAX_BYTES) throw badParam('thumbnail', `must be at most ${THUMBNAIL_MAX_BYTES / 1024 / 1024} MB`);
  const format = await imageFormat(file.path);
  if (!format) throw badParam('thumbnail', 'must be a PNG, JPEG, GIF or WebP image');
  const stem = safeName(file.filename.replace(/\.[^.]*$/, '')) || 'thumbnail';
  const path = `thumbnail/${stem}.${FORMATS[format].ext}`;
  const key = ctx.blobs.newKey();
  const size = await ctx.blobs.adopt(key, file.path);
  await putInfoFile(q, itemId, path, key, size);
  return path;
}

/** The thumbnail at `width` (made now if it was never asked for), streamed. */
export async function serveThumbnail(
  ctx: PortalContext,
  itemId: string,
  file: { path: string; blob_key: string },
  width: number,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const hit = await findRendition(ctx.db, itemId, file.path, width);
  if (hit) {
    // A rendition is small and its format is in its first bytes: read whole, no request for the original.
    const kept = await readBlob(ctx.blobs, hit.blob_key, IMAGE_READ_MAX_BYTES);
    const mime = FORMATS[formatOfBytes(kept) ?? 'png'].mime;
    reply.type(mime).header('Content-Length', String(kept.length)).header('X-Thumbnail-Rendition', 'cached').send(kept);
    return reply;
  }
  const original = await readBlob(ctx.blobs, file.blob_key, IMAGE_READ_MAX_BYTES);
  const format = (await imageFormat(original)) ?? 'png';
  // GIF renditions are written as PNG.
  const outFormat = (format === 'gif' ? 'png' : format) as 'png' | 'jpeg' | 'webp';
  const mime = FORMATS[outFormat].mime;
  const sharp = await loadSharp();
  const image = sharp(original, { limitInputPixels: MAX_PIXELS, animated: false }).resize({ width, withoutEnlargement: true });
  const out = await image.toFormat(outFormat).toBuffer();
  const key = ctx.blobs.newKey();
  const size = await ctx.blobs.write(key, Readable.from([out]));
  // Made twice at once: the other one was kept.
  if (!(await insertRendition(ctx.db, itemId, file.path, width, key, size))) await ctx.blobs.remove(key);
  reply.type(mime).header('Content-Length', String(out.length)).header('X-Thumbnail-Rendition', 'new').send(out);
  return reply;
}

/**
 * `thumbnailUrl`: the image is fetched through the outbound guard (no private addresses unless
 * OUTBOUND_ALLOW lists them, no redirects, time limits), at most THUMBNAIL_MAX_BYTES, into a
 * temporary file the caller stores with storeUploadedThumbnail (and removes). Any failure is a
 * 400 naming `thumbnailUrl`.
 */
export async function downloadThumbnail(ctx: PortalContext, url: string): Promise<UploadedFile> {
  await mkdir(ctx.tmpDir, { recursive: true });
  const file: UploadedFile = {
    kind: 'file',
    path: nodePath.join(ctx.tmpDir, randomUUID()),
    filename: 'thumbnail',
    mimetype: 'application/octet-stream',
    size: 0,
  };
  try {
    const res = await outboundRequest(url, ctx.config, { timeoutMs: 15_000 });
    if (res.status !== 200) {
      res.body.destroy();
      throw new Error(`the server answered HTTP ${res.status}`);
    }
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    if (last) file.filename = decodeURIComponent(last);
    let seen = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        seen += chunk.length;
        if (seen > THUMBNAIL_MAX_BYTES) return cb(new Error(`the image is larger than ${THUMBNAIL_MAX_BYTES / 1024 / 1024} MB`));
        cb(null, chunk);
      },
    });
    await pipeline(res.body, cap, createWriteStream(file.path));
    file.size = seen;
    if (!(await imageFormat(file.path))) throw new Error('it is not a PNG, JPEG, GIF or WebP image');
    return file;
  } catch (err) {
    await rm(file.path, { force: true });
    throw badParam('thumbnailUrl', `could not be fetched: ${(err as Error).message}`);
  }
}
