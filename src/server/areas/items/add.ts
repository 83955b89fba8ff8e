/**
 * addItem (spec §4.1, facts §3.1): an item from an uploaded file, text, a URL, a dataUrl fetched
 * in the background (async=true), or the start of a multipart upload. Only the named user, who
 * must hold portal:user:createItem, adds to their own folders. The item, its event, its background
 * job and the relationship asked for in the same call are written in one transaction: when the
 * relationship fails the item is gone too (and its file), and the error is returned.
 */
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { itemFields, itemIdParam, type ItemFields } from '../../../shared/contract/items.ts';
import { wireBool } from '../../../shared/contract/wire.ts';
import { dataStoreProblems } from '../../../shared/dataStore.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { parseParams, uploadedFileParam, type RawParams, type UploadedFile } from '../../http/params.ts';
import { recordEvent } from '../../store/events.ts';
import { hexId } from '../../store/ids.ts';
import { raise } from '../../core/signals.ts';
import { addRelationship } from '../relationships/service.ts';
import { indexItemReferences } from '../dependencies/service.ts';
import { findFolder, insertItemRow, itemExists, updateItemRow } from './repo.ts';
import { infoFileKeysOf } from './repo/infoFiles.ts';
import { insertDataUrlJob } from './repo/jobs.ts';
import { copySharing } from './repo/sharing.ts';
import { downloadThumbnail, storeUploadedThumbnail } from './thumbnails.ts';
import { keepUploadedFile } from './uploadedFiles.ts';
import { applyFileFields, removeBlobs } from './storedFile.ts';

// Report tasks still take removeBlobs from here.
export { removeBlobs };

export const uploadedFile = uploadedFileParam('must be a file sent as a multipart part');

const multipartStart = z.object({
  filename: z.string().trim().min(1, 'is required when multipart is true').max(1024),
});

const contentParams = z.object({
  file: uploadedFile.optional(),
  text: z.string().optional(),
  dataUrl: z.string().trim().min(1, 'must not be empty').max(2048).optional(),
  async: wireBool.optional(),
  filename: z.string().trim().max(1024).optional(),
  overwrite: wireBool.optional(),
  id: itemIdParam.optional(),
  relationshipType: z.string().trim().min(1).optional(),
  relationshipTypes: z.string().trim().min(1).optional(),
  originItemId: z.string().trim().min(1).optional(),
  destinationItemId: z.string().trim().min(1).optional(),
  // The item's thumbnail: an uploaded image or an image URL fetched through the outbound guard.
  thumbnail: uploadedFile.optional(),
  thumbnailUrl: z.string().trim().max(2048, 'must be at most 2048 characters').optional(),
});

export const addItemParams = itemFields.extend(contentParams.shape);
export type AddItemParams = z.output<typeof addItemParams>;

/** Each item field sent and the column it is stored in; 'json' columns are jsonb, written as JSON text. */
const FIELD_COLUMNS: ReadonlyArray<readonly [keyof ItemFields, string, 'json'?]> = [
  ['title', 'title'],
  ['type', 'type'],
  ['typeKeywords', 'type_keywords'],
  ['description', 'description'],
  ['tags', 'tags'],
  ['snippet', 'snippet'],
  ['extent', 'extent', 'json'],
  ['spatialReference', 'spatial_reference'],
  ['accessInformation', 'access_information'],
  ['licenseInfo', 'license_info'],
  ['culture', 'culture'],
  ['properties', 'properties', 'json'],
  ['url', 'url'],
  ['categories', 'categories'],
  ['appCategories', 'app_categories'],
  ['industries', 'industries'],
  ['languages', 'languages'],
  ['largeThumbnail', 'large_thumbnail'],
  ['banner', 'banner'],
  ['screenshots', 'screenshots'],
  ['listingProperties', 'listing', 'json'],
  ['documentation', 'documentation'],
  ['service', 'service_proxy', 'json'],
];

/** Item fields → column values (only those sent). jsonb values as JSON text. */
export function fieldColumns(f: ItemFields): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  for (const [field, col, json] of FIELD_COLUMNS) {
    const v = f[field];
    if (v !== undefined) c[col] = json ? JSON.stringify(v) : v;
  }
  if (f.serviceUsername !== undefined || f.servicePassword !== undefined) {
    c.service_credentials = JSON.stringify({ username: f.serviceUsername ?? '', password: f.servicePassword ?? '' });
  }
  return c;
}

/** The proxy URL of an item with a service proxy (see proxy/routes.ts). */
export const proxyPath = (itemId: string) => `/sharing/rest/content/items/${itemId}/proxy`;

export interface AddItemResult {
  success: true;
  id: string;
  folder: string | null;
  status?: 'processing';
  statusMessage?: string;
  itemId?: string;
  proxyUrl?: string;
}

const missingTitleType = () =>
  new ApiError(400, "'type' and 'title' property required.", ["'type' and 'title' property required."], undefined, {
    title: 'is required',
    type: 'is required',
  });

export async function addItem(ctx: PortalContext, caller: Caller, folderRef: string | undefined, raw: RawParams, baseUrl: string): Promise<AddItemResult> {
  const multipart = raw.multipart === undefined ? false : parseParams(z.object({ multipart: wireBool }), { multipart: raw.multipart }).multipart;

  if (multipart) {
    // "With multipart, all other parameters are ignored" (spec §4.1): only the file name matters.
    const { filename } = parseParams(multipartStart, { filename: raw.filename });
    const folder = await resolveFolder(ctx, caller, folderRef);
    const id = hexId();
    const now = ctx.clock.now();
    await ctx.db.tx(async (q) => {
      await insertItemRow(q, {
        id,
        org_id: caller.orgId,
        owner_id: caller.userId,
        folder_id: folder,
        name: filename,
        status: 'partial',
        status_message: 'Multipart upload started; add parts, then commit.',
        created: now,
        modified: now,
      });
      // Nothing to reference yet; indexed now so that start-up has nothing to read for it.
      await indexItemReferences(ctx, q, id);
      await recordEvent(q, {
        orgId: caller.orgId,
        source: 'item',
        operation: 'add',
        subjectId: id,
        actor: actorOf(caller),
        when: now,
        properties: { multipart: true },
        history: { owner: caller.username, title: filename, data: { after: { title: filename, ownerFolder: folder }, multipart: true } },
      });
    });
    return { success: true, id, folder };
  }

  const p = parseParams(addItemParams, raw);
  if (!p.title || !p.type) throw missingTitleType();
  const contents = [p.file && 'file', p.text !== undefined && 'text', p.dataUrl && 'dataUrl'].filter(Boolean) as string[];
  if (contents.length > 1) throw badParam(contents[1], `cannot be sent together with ${contents[0]}`);
  if (p.dataUrl) {
    if (!p.async) throw badParam('async', 'must be true when dataUrl is sent (the download runs in the background)');
    let u: URL | undefined;
    try {
      u = new URL(p.dataUrl);
    } catch {
      /* below */
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw badParam('dataUrl', 'must be an http or https URL');
  }
  if (p.type.toLowerCase() === 'data store' && p.text !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(p.text);
    } catch {
      throw badParam('text', 'must be the data store JSON (type, path, info)');
    }
    // The shapes a data item takes (src/shared/dataStore.ts): enterprise geodatabase, folder, cloud store.
    const details = dataStoreProblems(json);
    if (details.length) throw new ApiError(400, 'Invalid or missing input parameters.', details, undefined, { text: details[0] });
  }
  if (p.service && !p.url) throw badParam('service', 'needs the url of the service to proxy');
  const relType = p.relationshipType ?? p.relationshipTypes;
  if (p.originItemId && p.destinationItemId) {
    throw new ApiError(
      400,
      'Unable to add the item: send either originItemId or destinationItemId, not both.',
      ["'originItemId' and 'destinationItemId' cannot both be sent"],
      undefined,
      {
        destinationItemId: 'cannot be sent together with originItemId',
      },
    );
  }
  if (relType && !p.originItemId && !p.destinationItemId) throw badParam('originItemId', 'or destinationItemId is required with relationshipType');
  if (!relType && (p.originItemId || p.destinationItemId))
    throw badParam('relationshipType', `is required with ${p.originItemId ? 'originItemId' : 'destinationItemId'}`);

  if (p.thumbnail && p.thumbnailUrl) throw badParam('thumbnailUrl', 'cannot be sent together with a thumbnail file');

  const folder = await resolveFolder(ctx, caller, folderRef);
  const thumbnail = p.thumbnail ?? (p.thumbnailUrl ? await downloadThumbnail(ctx, p.thumbnailUrl) : undefined);
  try {
    return await addItemWith(ctx, caller, p, folder, relType, thumbnail, baseUrl);
  } finally {
    if (thumbnail && thumbnail !== p.thumbnail) await rm(thumbnail.path, { force: true });
  }
}

async function addItemWith(
  ctx: PortalContext,
  caller: Caller,
  p: AddItemParams,
  folder: string | null,
  relType: string | undefined,
  thumbnail: UploadedFile | undefined,
  baseUrl: string,
): Promise<AddItemResult> {
  const id = p.id ?? hexId();
  const now = ctx.clock.now();
  const file = p.file;
  const kept = file ? await keepUploadedFile(ctx, file) : undefined;
  const blobKey = kept?.key;
  const size = kept?.size ?? 0;
  const fileName = file ? p.filename || file.filename : undefined;
  const isAsync = !!p.dataUrl;
  const statusMessage = isAsync ? `Downloading ${p.dataUrl}` : undefined;
  const orphans: string[] = [];

  try {
    await ctx.db.tx(async (q) => {
      if (p.id && (await itemExists(q, p.id))) throw badParam('id', `an item with the id ${p.id} already exists`, `The item id ${p.id} already exists.`);
      const cols: Record<string, unknown> = {
        id,
        org_id: caller.orgId,
        owner_id: caller.userId,
        folder_id: folder,
        ...fieldColumns(p),
        name: fileName ?? (p.dataUrl ? fileNameOf(p.dataUrl) : null),
        created: now,
        modified: now,
      };
      if (file && blobKey) Object.assign(cols, { data_kind: 'file', data_blob: blobKey, data_mime: file.mimetype || 'application/octet-stream', size });
      else if (p.text !== undefined) Object.assign(cols, { data_kind: 'text', data_text: p.text, size: Buffer.byteLength(p.text) });
      if (isAsync) Object.assign(cols, { status: 'processing', status_message: statusMessage });
      await insertItemRow(q, cols);
      if (file && blobKey) await applyFileFields(ctx, q, p, { itemId: id, blobKey, fileName: fileName ?? 'file', size });
      if (thumbnail) await updateItemRow(q, id, { thumbnail: await storeUploadedThumbnail(ctx, q, id, thumbnail) });
      // Its references (text data, its URL) in the reference index; a file was read by the file hook.
      if (!file) await indexItemReferences(ctx, q, id);
      await recordEvent(q, {
        orgId: caller.orgId,
        source: 'item',
        operation: 'add',
        subjectId: id,
        actor: actorOf(caller),
        when: now,
        history: {
          owner: caller.username,
          title: String(cols.title ?? ''),
          data: { after: { title: cols.title ?? '', type: cols.type ?? '', ownerFolder: folder } },
        },
      });
      if (isAsync) {
        // The owner goes with the job: a failed download removes the item, and its status is then read from the job.
        await insertDataUrlJob(q, {
          id: hexId(),
          itemId: id,
          url: p.dataUrl,
          fileName: cols.name,
          now,
          orgId: caller.orgId,
          ownerId: caller.userId,
          ownerUsername: caller.username,
        });
      }
      if (relType) {
        // The relationship comes after the item (rule 6); a failure rolls the item back with it,
        // and the files stored for it (its data, info files extracted by the file hook) are removed.
        const newIsOrigin = !!p.destinationItemId;
        try {
          const { origin } = await addRelationship(
            q,
            caller,
            { type: relType, originId: newIsOrigin ? id : p.originItemId!, destinationId: newIsOrigin ? p.destinationItemId! : id },
            now,
          );
          // The destination inherits every sharing permission of the origin (spec §4.1 rule 5).
          if (!newIsOrigin) await copySharing(q, origin.id, id, now);
        } catch (err) {
          orphans.push(...(await infoFileKeysOf(q, id)));
          throw err;
        }
      }
    });
  } catch (err) {
    await removeBlobs(ctx, [...(blobKey ? [blobKey] : []), ...orphans]);
    throw err;
  }
  if (isAsync) raise('itemJobQueued');
  return {
    success: true,
    id,
    folder,
    ...(isAsync ? { status: 'processing' as const, statusMessage, itemId: id } : {}),
    ...(p.service ? { proxyUrl: `${baseUrl}${proxyPath(id)}` } : {}),
  };
}

function fileNameOf(url: string): string | null {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 1024) : null;
  } catch {
    return null;
  }
}

/** The folder id for `ref` (id or title) owned by the caller; null for the root. */
async function resolveFolder(ctx: PortalContext, caller: Caller, ref: string | undefined): Promise<string | null> {
  if (ref === undefined || ref === '' || ref === '/') return null;
  const folder = await findFolder(ctx.db, caller.userId, ref);
  if (!folder) throw new ApiError(400, 'Folder does not exist or is inaccessible.', [`Folder '${ref}' does not exist or is inaccessible.`]);
  return folder.id;
}
