/**
 * Update Thumbnail (`content/users/<u>[/<folderId>]/items/<id>/updateThumbnail`): the image as a
 * `file` part, a `url` to fetch, or `data` (base64, or a data: URI as PortalItem.updateThumbnail
 * sends it), with an optional `filename`. Each goes through the item update's own thumbnail path
 * (manage.ts updateItem): same size cap, same image check, the same outbound guard for `url`.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import nodePath from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { badParam } from '../../http/errors.ts';
import type { Reach } from '../../http/reach.ts';
import { operation } from '../../http/operation.ts';
import { uploadedFileParam } from '../../http/params.ts';
import { updateItem, updateItemParams } from './manage.ts';
import { OWNER_ITEM_PATHS } from './ownerItemPaths.ts';
import { THUMBNAIL_MAX_BYTES } from './thumbnails.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';

const uploadedFile = uploadedFileParam();

/** Base64 of the largest thumbnail, with room for a data: URI's header. */
const DATA_CHARS = Math.ceil(THUMBNAIL_MAX_BYTES / 3) * 4 + 256;

export const updateThumbnailParams = z.object({
  file: uploadedFile.optional(),
  url: z.string().trim().max(2048, 'must be at most 2048 characters').optional(),
  data: z.string().max(DATA_CHARS).optional(),
  filename: z.string().trim().max(256, 'must be at most 256 characters').optional(),
});

/** `data` as bytes: plain base64, or a `data:<type>;base64,` URI. */
function decodeData(data: string): Buffer {
  const body = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const compact = body.replace(/\s+/g, '');
  if (!compact || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw badParam('data', 'must be a base64-encoded image (or a data: URI)');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > THUMBNAIL_MAX_BYTES) throw badParam('data', `must be at most ${THUMBNAIL_MAX_BYTES / 1024 / 1024} MB`);
  return bytes;
}

export async function updateThumbnail(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  username: string,
  itemId: string,
  p: z.output<typeof updateThumbnailParams>,
): Promise<{ success: true }> {
  const given = [p.file && 'file', p.url && 'url', p.data && 'data'].filter(Boolean);
  if (given.length !== 1) throw badParam('file', given.length ? `cannot be sent together with ${given.slice(1).join(', ')}` : 'is required (or url, or data)');
  const none = updateItemParams.parse({});
  if (p.url) {
    await updateItem(ctx, caller, reach, username, itemId, { ...none, thumbnailUrl: p.url });
    return { success: true };
  }
  let temp: string | undefined;
  let file = p.file!;
  if (p.data) {
    const bytes = decodeData(p.data);
    await mkdir(ctx.tmpDir, { recursive: true });
    temp = nodePath.join(ctx.tmpDir, randomUUID());
    await writeFile(temp, bytes);
    file = { kind: 'file', path: temp, filename: 'thumbnail', mimetype: 'application/octet-stream', size: bytes.length };
  }
  try {
    await updateItem(ctx, caller, reach, username, itemId, { ...none, thumbnail: p.filename ? { ...file, filename: p.filename } : file });
  } finally {
    if (temp) await rm(temp, { force: true });
  }
  return { success: true };
}

export function updateThumbnailRoutes(app: FastifyInstance): void {
  for (const base of OWNER_ITEM_PATHS) {
    operation(app, {
      method: 'write',
      path: `${base}/updateThumbnail`,
      authority: ITEM_OPERATIONS.updateThumbnail,
      params: updateThumbnailParams,
      longParams: { data: DATA_CHARS },
      files: { parts: { file: THUMBNAIL_MAX_BYTES } },
      handler: ({ caller, path, params, portal, reach }) => updateThumbnail(portal, caller, reach, path.username, path.itemId, params),
    });
  }
}
