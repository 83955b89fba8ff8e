/**
 * Changing items (facts §4, Appendix A): update (fields, new data, thumbnail), move, delete,
 * protect and unprotect. The owner (holding portal:user:createItem) or an administrator of the
 * item's organization (portal:admin:updateItems; portal:admin:deleteItems to delete). Each change
 * and its event are one transaction; replaced or deleted files leave the blob store afterwards.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { itemFields, type ItemFields } from '../../../shared/contract/items.ts';
import { wireBool } from '../../../shared/contract/wire.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import type { Reach } from '../../http/reach.ts';
import { multipartLimits } from '../../http/multipart.ts';
import { operation } from '../../http/operation.ts';
import { uploadedFileParam } from '../../http/params.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import type { HistoryData } from '../../../shared/contract/history.ts';
import { recordEvent } from '../../store/events.ts';
import { folderNames } from './historyState.ts';
import { assertMayChange, itemNotFound, visibleItem } from './access.ts';
import { afterItemFileStored } from './fileHooks.ts';
import { deleteItemRow, findFolder, JSONB_COLUMNS, lockItem, updateItemRow, type ItemRow } from './repo.ts';
import { codeAttachmentIdsOf, updateItemFolder, updateItemProtection } from './repo/manage.ts';
import { rm } from 'node:fs/promises';
import { downloadThumbnail, storeUploadedThumbnail, THUMBNAIL_MAX_BYTES } from './thumbnails.ts';
import { keepUploadedFile, streamItemFile } from './uploadedFiles.ts';
import { deactivateItemTasks } from '../tasks/service.ts';
import { OWNER_ITEM_PATHS } from './ownerItemPaths.ts';
import { replacedReferences } from '../../../shared/references/replaced.ts';
import { indexItemReferences } from '../dependencies/service.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';
import { deleteRecycled, isRecycled, recyclable, recycleItem } from '../recycleBin/service.ts';

const uploadedFile = uploadedFileParam();

/** Fields sent empty are set aside (cleared only with clearEmptyFields=true). */
const FIELD_NAMES = Object.keys(itemFields.shape) as (keyof ItemFields)[];

export const updateItemParams = z.preprocess(
  (raw) => {
    const o: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    const empty: string[] = [];
    for (const k of FIELD_NAMES) {
      if (o[k] === '' || (typeof o[k] === 'string' && o[k].trim() === '' && k !== 'description')) {
        empty.push(k);
        delete o[k];
      }
    }
    o.emptyFields = empty;
    return o;
  },
  itemFields.extend({
    text: z
      .string()
      .max(16 * 1024 * 1024, 'must be at most 16 MB')
      .optional(),
    file: uploadedFile.optional(),
    /** A new thumbnail image; a string (the current thumbnail path, as a fetched item carries it) changes nothing. */
    thumbnail: z.union([uploadedFile, z.string()]).optional(),
    /** An image URL fetched through the outbound guard. */
    thumbnailUrl: z.string().trim().max(2048, 'must be at most 2048 characters').optional(),
    clearEmptyFields: wireBool.optional(),
    emptyFields: z.array(z.string()),
  }),
);
export type UpdateItemParams = z.output<typeof updateItemParams>;

/** Item field → column. */
const COLUMNS: Record<Exclude<keyof ItemFields, 'serviceUsername' | 'servicePassword'>, string> = {
  title: 'title',
  type: 'type',
  typeKeywords: 'type_keywords',
  description: 'description',
  tags: 'tags',
  snippet: 'snippet',
  extent: 'extent',
  spatialReference: 'spatial_reference',
  accessInformation: 'access_information',
  licenseInfo: 'license_info',
  culture: 'culture',
  properties: 'properties',
  url: 'url',
  categories: 'categories',
  appCategories: 'app_categories',
  industries: 'industries',
  languages: 'languages',
  largeThumbnail: 'large_thumbnail',
  banner: 'banner',
  screenshots: 'screenshots',
  listingProperties: 'listing',
  documentation: 'documentation',
  service: 'service_proxy',
};
const ARRAYS = new Set(['type_keywords', 'tags', 'categories', 'app_categories', 'industries', 'languages', 'screenshots']);
/** Fields that cannot be cleared: an item always has a title and a type. */
const REQUIRED = new Set(['title', 'type']);

/** The item addressed through a member's content path: it must be that member's. */
async function ownedItem(q: Queryable, username: string, itemId: string, caller: Caller): Promise<ItemRow> {
  const row = await visibleItem(q, itemId, caller);
  if (row.owner_username.toLowerCase() !== username.toLowerCase()) throw itemNotFound(itemId);
  return row;
}

/** `reach`: what the operation's declaration (updateItem, updateThumbnail) lets the caller change. */
export async function updateItem(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string, p: UpdateItemParams) {
  if (p.text !== undefined && p.file) throw badParam('text', 'cannot be sent together with file');
  if (p.thumbnailUrl && p.thumbnail && typeof p.thumbnail !== 'string') throw badParam('thumbnailUrl', 'cannot be sent together with a thumbnail file');
  const now = ctx.clock.now();
  const oldBlobs: string[] = [];
  // A thumbnail URL pointing at this item's own info files (a fetched item sent back) is not fetched.
  const fetchThumb = p.thumbnailUrl && !p.thumbnailUrl.includes(`/content/items/${itemId}/info/`) ? p.thumbnailUrl : undefined;
  if (fetchThumb) {
    // Nothing is fetched for a caller who may not change the item (checked again in the transaction).
    assertMayChange(await ownedItem(ctx.db, username, itemId, caller), caller, reach);
  }
  const downloaded = fetchThumb ? await downloadThumbnail(ctx, fetchThumb) : undefined;
  try {
    return await updateItemWith(ctx, caller, reach, username, itemId, downloaded ? { ...p, thumbnail: downloaded } : p, now, oldBlobs);
  } finally {
    if (downloaded) await rm(downloaded.path, { force: true });
  }
}

/** Columns history leaves out of before/after: bookkeeping, file contents, and the service credentials (a secret). */
const NOT_IN_HISTORY = new Set(['modified', 'service_credentials', 'data_kind', 'data_text', 'data_blob', 'data_mime', 'size']);
const FIELD_OF = new Map(Object.entries(COLUMNS).map(([field, col]) => [col, field]));

/** An update's before/after, by field name, of the fields whose value changes. */
function itemChange(row: ItemRow, cols: Record<string, unknown>, dataChanged: boolean): HistoryData {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [col, raw] of Object.entries(cols)) {
    if (NOT_IN_HISTORY.has(col)) continue;
    const next = JSONB_COLUMNS.has(col) && typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    const prev = (row as unknown as Record<string, unknown>)[col] ?? null;
    if (JSON.stringify(prev) === JSON.stringify(next ?? null)) continue;
    const field = FIELD_OF.get(col) ?? col;
    before[field] = prev;
    after[field] = next ?? null;
  }
  return { before, after, ...('service_credentials' in cols ? { serviceCredentials: 'changed' } : {}), ...(dataChanged ? { dataChanged: true } : {}) };
}

/**
 * The swaps that turned the item's text data into `text`, when that is all that changed (replaced.ts).
 * Not looked for in data over LIMITS.referenceParseOnThreadBytes (parsing both on the request thread
 * would hold every other request): such an update is history's ordinary data change.
 */
function referenceSwaps(type: string, row: ItemRow, text: string) {
  if (row.data_kind !== 'text' || row.data_text === null) return undefined;
  if (text.length > LIMITS.referenceParseOnThreadBytes || row.data_text.length > LIMITS.referenceParseOnThreadBytes) return undefined;
  try {
    return replacedReferences(type, JSON.parse(row.data_text), JSON.parse(text));
  } catch {
    // Data that is no JSON swapped nothing the extractor reads.
    return undefined;
  }
}

async function updateItemWith(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  username: string,
  itemId: string,
  p: UpdateItemParams,
  now: number,
  oldBlobs: string[],
) {
  const result = await ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await ownedItem(q, username, itemId, caller);
    assertMayChange(row, caller, reach);
    const cols: Record<string, unknown> = {};
    for (const [field, col] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, string][]) {
      const v = p[field];
      if (v === undefined) continue;
      cols[col] = JSONB_COLUMNS.has(col) ? JSON.stringify(v) : v;
    }
    if (p.serviceUsername !== undefined || p.servicePassword !== undefined) {
      const prev = row.service_credentials ?? { username: '', password: '' };
      cols.service_credentials = JSON.stringify({ username: p.serviceUsername ?? prev.username, password: p.servicePassword ?? prev.password });
    }
    if (p.clearEmptyFields) {
      for (const field of p.emptyFields as (keyof ItemFields)[]) {
        if (REQUIRED.has(field)) throw badParam(field, 'must not be empty');
        if (field === 'serviceUsername' || field === 'servicePassword') {
          cols.service_credentials = null;
          continue;
        }
        const col = COLUMNS[field];
        cols[col] = col === 'extent' ? '[]' : ARRAYS.has(col) ? [] : null;
      }
    }
    if (p.text !== undefined) {
      if (row.data_blob) oldBlobs.push(row.data_blob);
      Object.assign(cols, { data_kind: 'text', data_text: p.text, data_blob: null, data_mime: null, size: Buffer.byteLength(p.text) });
    }
    if (p.thumbnail && typeof p.thumbnail !== 'string') cols.thumbnail = await storeUploadedThumbnail(ctx, q, row.id, p.thumbnail);
    cols.modified = now;
    const change = itemChange(row, cols, p.text !== undefined || !!p.file);
    if (p.text !== undefined) {
      // Only references swapped (a map pointed at a replacement layer): history records the swaps, which undo reverses.
      const swaps = referenceSwaps(typeof cols.type === 'string' ? cols.type : row.type, row, p.text);
      if (swaps) change.replacedReferences = swaps;
    }
    await updateItemRow(q, row.id, cols);
    if (p.file) {
      if (row.data_blob) oldBlobs.push(row.data_blob);
      const { key, size } = await keepUploadedFile(ctx, p.file);
      await updateItemRow(q, row.id, {
        data_kind: 'file',
        data_text: null,
        data_blob: key,
        data_mime: p.file.mimetype || 'application/octet-stream',
        size,
        name: row.name ?? p.file.filename,
      });
      try {
        const derived = await afterItemFileStored(ctx, q, { itemId: row.id, blobKey: key, fileName: p.file.filename, size });
        const fromFile: Record<string, unknown> = {};
        if (derived.name) fromFile.name = derived.name;
        if (derived.title && p.title === undefined) fromFile.title = derived.title;
        if (derived.thumbnail && !(p.thumbnail && typeof p.thumbnail !== 'string')) fromFile.thumbnail = derived.thumbnail;
        if (derived.documentation && p.documentation === undefined) fromFile.documentation = derived.documentation;
        await updateItemRow(q, row.id, fromFile);
      } catch (err) {
        await ctx.blobs.remove(key);
        throw err;
      }
    }
    // The reference index follows the new data, URL or type (a new file was read by the file hook).
    if (!p.file && (p.text !== undefined || 'url' in cols || 'type' in cols)) await indexItemReferences(ctx, q, row.id);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: 'update',
      subjectId: row.id,
      actor: actorOf(caller),
      when: now,
      history: { owner: row.owner_username, title: typeof cols.title === 'string' ? cols.title : row.title, data: change },
    });
    return { success: true as const, id: row.id };
  });
  await removeBlobsQuietly(ctx.blobs, oldBlobs, ctx.log);
  return result;
}

export async function moveItem(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string, folder: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await ownedItem(q, username, itemId, caller);
    assertMayChange(row, caller, reach);
    let folderId: string | null = null;
    const target = folder.trim();
    if (target && target !== '/') {
      const f = await findFolder(q, row.owner_id, target);
      if (!f) throw badParam('folder', `'${target}' is not a folder of ${row.owner_username}`, 'Folder does not exist or is inaccessible.');
      folderId = f.id;
    }
    await updateItemFolder(q, row.id, folderId, now);
    const names = await folderNames(q, [row.folder_id, folderId]);
    const place = (id: string | null) => ({ ownerFolder: id, folderName: id ? (names.get(id) ?? null) : null });
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: 'move',
      subjectId: row.id,
      actor: actorOf(caller),
      properties: { folder: folderId },
      when: now,
      history: { owner: row.owner_username, title: row.title, data: { before: place(row.folder_id), after: place(folderId) } },
    });
    return { success: true as const, itemId: row.id, owner: row.owner_username, folder: folderId };
  });
}

/** Authoritative items are protected from deletion like protected ones (facts §3.6). */
export function deleteRefusal(row: Pick<ItemRow, 'protected' | 'content_status'>): string | null {
  if (row.protected) return 'Unable to delete item. Delete protection is turned on.';
  if (row.content_status === 'org_authoritative' || row.content_status === 'public_authoritative') {
    return 'Unable to delete item. Authoritative items are protected from deletion; remove the authoritative status first.';
  }
  return null;
}

/**
 * Deletes into the recycle bin (areas/recycleBin), or for good with `permanent` (the documented
 * permanentDelete=true; also the way to empty one entry of the bin) or when the item is not one the
 * bin keeps (an upload in progress).
 */
export async function deleteItem(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string, permanent = false) {
  const now = ctx.clock.now();
  if (permanent && (await isRecycled(ctx.db, itemId))) return deleteRecycled(ctx, caller, username, itemId);
  let codeItems: string[] = [];
  const blobs = await ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await ownedItem(q, username, itemId, caller);
    assertMayChange(row, caller, reach);
    const refusal = deleteRefusal(row);
    if (refusal) throw new ApiError(400, refusal, [refusal]);
    codeItems = await codeAttachmentsOf(q, row);
    if (!permanent && recyclable(row)) {
      await recycleItem(q, row, caller, now);
      await itemDeleted(q, row, caller, now, { recycled: true });
      return [];
    }
    const keys = await deleteItemRow(q, row.id);
    await itemDeleted(q, row, caller, now, {});
    return keys;
  });
  await removeBlobsQuietly(ctx.blobs, blobs, ctx.log);
  for (const codeId of codeItems) {
    // The app is gone either way; a code attachment that cannot go (delete protection) stays, said in the log.
    await deleteItem(ctx, caller, reach, username, codeId, permanent).catch((err: unknown) => ctx.log.warn({ err, itemId: codeId }, 'code attachment kept'));
  }
  return { success: true as const, itemId };
}

/**
 * The code attachments an app carries (WMA2Code, MobileApp2Code): ArcGIS treats an app and its code
 * attachment as one item when deleted (relationship types page), so they go with the app — solution.js
 * makes one for each Web AppBuilder app it deploys and deleteSolution counts on it. Only the owner's own.
 */
async function codeAttachmentsOf(q: Queryable, row: ItemRow): Promise<string[]> {
  return codeAttachmentIdsOf(q, row.id, row.owner_id);
}

/**
 * What follows an item's delete, into the recycle bin or for good: its scheduled tasks have nothing
 * left to run on, so they stop, saying why (they stay listed); the delete event and history entry.
 */
async function itemDeleted(q: Queryable, row: ItemRow, caller: Caller, now: number, mark: { recycled?: true }) {
  await deactivateItemTasks(q, row.org_id, row.id, { reason: 'The item was deleted; its tasks were deactivated.', now });
  await recordEvent(q, {
    orgId: row.org_id,
    source: 'item',
    operation: 'delete',
    subjectId: row.id,
    actor: actorOf(caller),
    properties: { title: [row.title], type: row.type },
    when: now,
    history: {
      owner: row.owner_username,
      title: row.title,
      data: { before: { title: row.title, type: row.type, owner: row.owner_username, ownerFolder: row.folder_id }, ...mark },
    },
  });
}

export async function setItemProtected(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string, value: boolean) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await ownedItem(q, username, itemId, caller);
    assertMayChange(row, caller, reach);
    await updateItemProtection(q, row.id, value, now);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: value ? 'protect' : 'unprotect',
      subjectId: row.id,
      actor: actorOf(caller),
      when: now,
      history: { owner: row.owner_username, title: row.title, data: { before: { protected: row.protected }, after: { protected: value } } },
    });
    return { success: true as const };
  });
}

export function itemManageRoutes(app: FastifyInstance): void {
  for (const base of OWNER_ITEM_PATHS) {
    operation(app, {
      method: 'write',
      path: `${base}/update`,
      authority: ITEM_OPERATIONS.updateItem,
      params: updateItemParams,
      // Item data sent as text (web map JSON and the like) is bounded by the request body only.
      longParams: { text: LIMITS.formBodyBytes },
      // A new file and thumbnail; an administrator who may update others' items may send them too.
      // A file whose token comes first is written in its place as it arrives (on disk: uploadedFiles.ts).
      files: { parts: { file: multipartLimits.fileSize, thumbnail: THUMBNAIL_MAX_BYTES }, streamTo: streamItemFile },
      handler: ({ caller, path, params, portal, reach }) => updateItem(portal, caller, reach, path.username, path.itemId, params),
    });
    operation(app, {
      method: 'write',
      path: `${base}/move`,
      authority: ITEM_OPERATIONS.moveItem,
      params: z.object({ folder: z.string().max(256).default('/') }),
      handler: ({ caller, path, params, portal, reach }) => moveItem(portal, caller, reach, path.username, path.itemId, params.folder),
    });
    operation(app, {
      method: 'write',
      path: `${base}/delete`,
      authority: ITEM_OPERATIONS.deleteItem,
      // permanentDelete as documented (rest-js sends it in the query); `permanent` as the spec's facts had it.
      params: z.object({ permanentDelete: wireBool.optional(), permanent: wireBool.optional() }),
      handler: ({ caller, path, params, portal, reach }) =>
        deleteItem(portal, caller, reach, path.username, path.itemId, params.permanentDelete === true || params.permanent === true),
    });
    for (const [op, value] of [
      ['protect', true],
      ['unprotect', false],
    ] as const) {
      operation(app, {
        method: 'write',
        path: `${base}/${op}`,
        authority: ITEM_OPERATIONS.protectItem,
        params: z.object({}),
        handler: ({ caller, path, portal, reach }) => setItemProtected(portal, caller, reach, path.username, path.itemId, value),
      });
    }
  }
}
