/**
 * Group thumbnails: createGroup and community/groups/<id>/update take a `thumbnail` file part (as
 * rest-js's createGroup/updateGroup send it), an image of at most 10 MB (PNG, JPEG, GIF or WebP,
 * checked as item thumbnails are); the group's `thumbnail` is its file name, served at
 * community/groups/<id>/info/<file> to whoever may see the group. A new image replaces the old.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PortalContext } from '../../context.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { uploadedFileParam, type UploadedFile } from '../../http/params.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import { sendStoredFile } from '../../http/sendFile.ts';
import { imageFormat, THUMBNAIL_MAX_BYTES } from '../items/service.ts';
import { deleteInfoFilesOfGroup, findInfoFile, insertInfoFile, setThumbnailName } from './repo.ts';

const uploadedFile = uploadedFileParam();
/** A file part; a string (the thumbnail name a fetched group carries, sent back) changes nothing. */
export const groupThumbnailParam = z.union([uploadedFile, z.string()]).optional();
export const GROUP_THUMBNAIL_FILES = { parts: { thumbnail: THUMBNAIL_MAX_BYTES } };

const EXTENSIONS: Record<string, { ext: string; mime: string }> = {
  png: { ext: 'png', mime: 'image/png' },
  jpeg: { ext: 'jpg', mime: 'image/jpeg' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
};

/** The file name the image is kept under (its own name's stem, its real format's extension); not an image → 400 naming `thumbnail`. */
export async function groupThumbnailName(file: UploadedFile): Promise<string> {
  if (file.size > THUMBNAIL_MAX_BYTES) throw badParam('thumbnail', `must be at most ${THUMBNAIL_MAX_BYTES / 1024 / 1024} MB`);
  const format = await imageFormat(file.path);
  const known = format ? EXTENSIONS[format] : undefined;
  if (!known) throw badParam('thumbnail', 'must be a PNG, JPEG, GIF or WebP image');
  const stem =
    file.filename
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 100) || 'thumbnail';
  return `${stem}.${known.ext}`;
}

/** Keeps the image as the group's thumbnail (replacing any earlier one, whose file then leaves the store). */
export async function setGroupThumbnail(ctx: PortalContext, groupId: string, file: UploadedFile, name: string): Promise<void> {
  const key = ctx.blobs.newKey();
  const size = await ctx.blobs.adopt(key, file.path);
  let old: string[] = [];
  try {
    old = await ctx.db.tx(async (q) => {
      const previous = await deleteInfoFilesOfGroup(q, groupId);
      await insertInfoFile(q, groupId, name, key, size);
      await setThumbnailName(q, groupId, name);
      return previous;
    });
  } catch (err) {
    await ctx.blobs.remove(key);
    throw err;
  }
  await removeBlobsQuietly(ctx.blobs, old, ctx.log);
}

/**
 * The group's info file (its thumbnail) as the answer. A file the group does not have answers HTTP
 * 404 with the error envelope: an image a client loads must not take an error for its bytes.
 */
export async function sendGroupInfoFile(ctx: PortalContext, groupId: string, path: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const file = await findInfoFile(ctx.db, groupId, path);
  if (!file) {
    const err = new ApiError(404, 'File not found.', [`The group has no info file '${path}'.`]);
    return reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ error: err.toBody() }));
  }
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const mime = Object.values(EXTENSIONS).find((e) => e.ext === ext)?.mime ?? 'application/octet-stream';
  reply.header('X-Content-Type-Options', 'nosniff').header('Content-Security-Policy', "default-src 'none'; sandbox").type(mime);
  return sendStoredFile(req, reply, ctx.blobs, file.blob_key, Number(file.size));
}
