/**
 * Item reads (facts §4): the item record, its data, its info files (esriinfo and the thumbnail),
 * a member's content listing and the user-item link with its sharing.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { pageEnvelope, pagingParams } from '../../../shared/contract/wire.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { ApiError, tokenRequired } from '../../http/errors.ts';
import { decide } from '../../http/target.ts';
import { operation, REST } from '../../http/operation.ts';
import type { UserRow } from '../users/service.ts';
import { toItem, visibleItem } from './access.ts';
import { CONTENT_OWNER, MEMBER_ITEM } from './target.ts';
import { proxyPath } from './add.ts';
import { baseUrlOf } from './addRoutes.ts';
import { foldersOf, type FolderRow } from './repo.ts';
import { folderRecord } from './service.ts';
import { countItemsInFolder, countItemView, itemsInFolder } from './repo/content.ts';
import { findInfoFile, infoFilePathsOf } from './repo/infoFiles.ts';
import { sendStoredFile } from '../../http/sendFile.ts';
import { serveThumbnail, THUMBNAIL_WIDTH_PARAM } from './thumbnails.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';

const none = z.object({});

/** `attachment; filename="…"` with a plain-ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const base = fileName.replace(/[\r\n"\\/]/g, '_').slice(0, 200) || 'data';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

/** Served files never run as pages of this origin. */
function safeHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('X-Content-Type-Options', 'nosniff').header('Content-Security-Policy', "default-src 'none'; sandbox");
}

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  xml: 'text/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
};
export const mimeOf = (path: string) => MIME_BY_EXT[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** A member's content (`user` authorized by the operation: CONTENT_OWNER), at the root or in one of their folders. */
export async function listUserContent(ctx: PortalContext, user: UserRow, folderId: string | null, paging: z.output<typeof pagingParams>) {
  const folders = await foldersOf(ctx.db, user.id);
  let current: FolderRow | undefined;
  if (folderId !== null) {
    current = folders.find((f) => f.id === folderId);
    if (!current) throw new ApiError(400, 'Folder does not exist or is inaccessible.', [`Folder '${folderId}' does not exist or is inaccessible.`]);
  }
  const n = await countItemsInFolder(ctx.db, user.id, current?.id ?? null);
  const rows = await itemsInFolder(ctx.db, user.id, current?.id ?? null, paging.num, paging.start - 1);
  return {
    username: user.username,
    ...pageEnvelope(n, paging, rows.length),
    ...(current ? { currentFolder: folderRecord(current, user.username) } : {}),
    items: rows.map(toItem),
    folders: folders.map((f) => folderRecord(f, user.username)),
  };
}

export function itemReadRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId`,
    authority: ITEM_OPERATIONS.item,
    params: none,
    access: 'public',
    handler: async ({ caller, path, portal }) => {
      const row = await visibleItem(portal.db, path.itemId, caller);
      await countItemView(portal.db, row.id);
      return toItem({ ...row, num_views: Number(row.num_views) + 1 });
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/data`,
    head: true,
    authority: ITEM_OPERATIONS.itemData,
    params: none,
    access: 'public',
    handler: async ({ caller, path, portal, req, reply }) => {
      const row = await visibleItem(portal.db, path.itemId, caller);
      safeHeaders(reply);
      if (row.data_kind === 'text' && row.data_text !== null) {
        reply.type(looksLikeJson(row.data_text) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8').send(row.data_text);
        return reply;
      }
      if (row.data_kind === 'file' && row.data_blob) {
        reply.type(row.data_mime || 'application/octet-stream').header('Content-Disposition', contentDisposition(row.name || 'data'));
        // The row's size is the stored file's (written together): no request to the store to learn it.
        return sendStoredFile(req, reply, portal.blobs, row.data_blob, Number(row.size));
      }
      // No data: an empty body (rest-js's getItemData resolves undefined for it).
      reply.type('text/plain; charset=utf-8').send('');
      return reply;
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/info/*`,
    head: true,
    authority: ITEM_OPERATIONS.itemInfoFile,
    params: z.object({ w: THUMBNAIL_WIDTH_PARAM }).partial(),
    access: 'public',
    handler: async ({ caller, path, params, portal, req, reply }) => {
      const row = await visibleItem(portal.db, path.itemId, caller);
      // The router has decoded the path once already; decoding again would read `%25` as a bad escape (and `%2525` as `%`).
      const rel = path['*'] ?? '';
      const file = await findInfoFile(portal.db, row.id, rel);
      if (!file) throw new ApiError(404, 'File not found.', [`The item has no info file '${rel}'.`]);
      safeHeaders(reply);
      if (row.thumbnail && rel === row.thumbnail) return serveThumbnail(portal, row.id, file, params.w ?? 200, reply);
      reply.type(mimeOf(rel));
      return sendStoredFile(req, reply, portal.blobs, file.blob_key, Number(file.size));
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/users/:username`,
    authority: ITEM_OPERATIONS.userContent,
    target: CONTENT_OWNER,
    params: pagingParams,
    handler: ({ params, portal, target }) => listUserContent(portal, target, null, params),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/users/:username/:folderId`,
    authority: ITEM_OPERATIONS.userContent,
    params: pagingParams,
    access: 'public',
    handler: async ({ caller, path, params, portal, req }) => {
      // Folder ids are 32 hex characters: anything else under content/users/<user>/ is not an operation.
      if (!/^[a-f0-9]{32}$/i.test(path.folderId)) throw new ApiError(400, 'Invalid URL', [`No operation at ${req.url.split('?')[0]}.`], 'GWM_0002');
      if (!caller) throw tokenRequired();
      // A public route (the URL check above answers before the token's): the same target, decided here once signed in.
      const owner = await CONTENT_OWNER.load({ caller, path, portal });
      decide(ITEM_OPERATIONS.userContent, caller, owner, CONTENT_OWNER.refusals);
      return listUserContent(portal, owner.value, path.folderId, params);
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/users/:username/items/:itemId`,
    authority: ITEM_OPERATIONS.userItem,
    extras: ['infoFiles', 'proxyUrl'],
    target: MEMBER_ITEM,
    params: none,
    handler: async ({ portal, req, target: row }) => {
      const item = toItem(row);
      // `infoFiles` is a local-portal extra (real clients ignore it): what content/items/<id>/info/ serves.
      const infoFiles = await infoFilePathsOf(portal.db, row.id);
      // `proxyUrl` (local extra, as addItem answers it): where the service proxy of an item added
      // with `service` forwards with the stored credentials. Only the owner and administrators get here.
      const proxyUrl = row.service_proxy && row.url ? `${baseUrlOf(req)}${proxyPath(row.id)}` : undefined;
      return { item, sharing: { access: item.access, groups: row.group_ids }, infoFiles, ...(proxyUrl ? { proxyUrl } : {}) };
    },
  });
}

/**
 * Whether text data goes out as JSON. Short data is parsed to decide; data over
 * LIMITS.referenceParseOnThreadBytes (up to 8 MB) is not parsed on the thread that serves every
 * request only to pick a content type: its shape decides (an object or an array from end to end).
 */
export function looksLikeJson(text: string): boolean {
  if (text.length > LIMITS.referenceParseOnThreadBytes) {
    const ends = text.trim();
    return (ends.startsWith('{') && ends.endsWith('}')) || (ends.startsWith('[') && ends.endsWith(']'));
  }
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
