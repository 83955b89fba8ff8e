/**
 * Item resources: add (a file, `text`, or a zip unpacked with archive=true), update, remove (one or
 * all), list and read. The bytes go to the blob store before the rows that name them commit, and
 * leave it after the rows are gone (store/blobs.ts); every change is one transaction on the locked
 * item with its history event (an item update naming the resources).
 */
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { LIMITS } from '../../../shared/limits.ts';
import {
  type ItemResource,
  type listResourcesParams,
  type removeResourcesParams,
  type ResourceAccess,
  type resourceWriteParams,
} from '../../../shared/contract/resources.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam, forbidden } from '../../http/errors.ts';
import type { Reach } from '../../http/reach.ts';
import type { UploadedFile } from '../../http/params.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import {
  assertMayChange,
  itemNotFound,
  visibleItem,
  extractZipFiles,
  safeRelativePath,
  startsLikeZip,
  type ExtractedFile,
  keepUploadedFile,
} from '../items/service.ts';
import {
  deleteResourceRows,
  insertResource,
  lockItem,
  resourceTotals,
  resourcesOf,
  setItemResourcesSize,
  setResourceAccess,
  type ResourceRow,
} from './repo.ts';

/** The item row as the items area answers it (its repo is its own). */
type ItemRow = Awaited<ReturnType<typeof visibleItem>>;

export type WriteParams = z.output<typeof resourceWriteParams> & { file?: UploadedFile };

/** The ratio a zip entry may inflate by: the same guard as packages' esriinfo/ (esriinfo.ts). */
const ARCHIVE_RATIO = 100;

export const resourceNotFound = (path: string) => new ApiError(404, 'Resource does not exist or is inaccessible.', [`The item has no resource '${path}'.`]);

/** The resource's path: `resourcesPrefix/fileName`, plain segments only (no `..`, no absolute path). */
function resourcePath(prefix: string | undefined, fileName: string, param = 'fileName'): string {
  const joined = [prefix?.trim().replace(/^\/+|\/+$/g, ''), fileName.trim()].filter(Boolean).join('/');
  const safe = joined.length <= LIMITS.resourcePathChars ? safeRelativePath(joined) : null;
  if (!safe) throw badParam(param, 'must be a file name (with resourcesPrefix, a path of plain folder names)');
  return safe;
}

/** The item named in a content/users/<u>/items/<id> path, if the caller may change its resources. */
async function changeableItem(q: Queryable, caller: Caller, reach: Reach, username: string, itemId: string): Promise<ItemRow> {
  const row = await visibleItem(q, itemId, caller);
  if (row.owner_username.toLowerCase() !== username.toLowerCase()) throw itemNotFound(itemId);
  assertMayChange(row, caller, reach);
  return row;
}

/** What one write brings: files already in the store, each at its path, with its size. */
interface Incoming {
  files: ExtractedFile[];
  archive: boolean;
}

/** The first `n` bytes of a local file (fewer if it is shorter). */
async function firstBytes(path: string, n: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(n), 0, n, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Puts the request's file, text or archive into the store (nothing is recorded yet). */
async function storeIncoming(ctx: PortalContext, p: WriteParams, requireName: boolean): Promise<Incoming> {
  if (p.file && p.text !== undefined) throw badParam('text', 'cannot be sent together with file');
  if (p.archive) {
    if (!p.file) throw badParam('file', 'is required with archive=true (a zip file)');
    if (!startsLikeZip(await firstBytes(p.file.path, 4))) throw badParam('file', 'must be a zip file with archive=true');
    const extracted = await extractZipFiles(ctx, p.file.path, '', {
      maxEntries: LIMITS.resourcesPerItem,
      maxTotalBytes: LIMITS.resourcesBytesPerItem,
      maxEntryBytes: LIMITS.resourceBytes,
      maxRatio: ARCHIVE_RATIO,
    });
    if (!extracted) throw badParam('file', 'is not a readable zip file');
    try {
      const prefix = p.resourcesPrefix?.trim();
      return { files: extracted.files.map((f) => ({ ...f, path: prefix ? resourcePath(prefix, f.path, 'resourcesPrefix') : f.path })), archive: true };
    } catch (err) {
      await removeStored(ctx, extracted.files);
      throw err;
    }
  }
  if (p.file) {
    if (p.file.size > LIMITS.resourceBytes) throw badParam('file', `must be at most ${LIMITS.resourceBytes / 1024 / 1024} MB`);
    const name = p.fileName?.trim() || p.file.filename;
    const path = resourcePath(p.resourcesPrefix, name);
    const { key, size } = await keepUploadedFile(ctx, p.file);
    return { files: [{ path, key, size }], archive: false };
  }
  if (p.text !== undefined) {
    if (!p.fileName?.trim()) throw badParam('fileName', 'is required with text');
    const bytes = Buffer.from(p.text, 'utf8');
    if (bytes.length > LIMITS.resourceBytes) throw badParam('text', `must be at most ${LIMITS.resourceBytes / 1024 / 1024} MB`);
    const path = resourcePath(p.resourcesPrefix, p.fileName);
    const key = ctx.blobs.newKey();
    const size = await ctx.blobs.write(key, Readable.from([bytes]));
    return { files: [{ path, key, size }], archive: false };
  }
  if (requireName || !p.access) throw badParam('file', 'is required (or text with fileName)');
  return { files: [], archive: false };
}

/**
 * addResources (`mode` add: a path already there is refused, except for an archive's files, which
 * replace) and updateResources (`mode` update: the path must be there; `access` alone changes only
 * the access).
 */
/** `reach`: what the operation's declaration (addResources, updateResources) lets the caller change. */
export async function writeResources(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  username: string,
  itemId: string,
  p: WriteParams,
  mode: 'add' | 'update',
) {
  // Who may change the item is asked before any byte is stored, and again on the locked row.
  await changeableItem(ctx.db, caller, reach, username, itemId);
  const incoming = await storeIncoming(ctx, p, mode === 'add');
  const replaced: string[] = [];
  const now = ctx.clock.now();
  try {
    const result = await ctx.db.tx(async (q) => {
      await lockItem(q, itemId);
      const row = await changeableItem(q, caller, reach, username, itemId);
      const existing = new Map((await resourcesOf(q, row.id)).map((r) => [r.path, r]));
      const paths = mode === 'update' && !incoming.files.length ? [resourcePath(p.resourcesPrefix, p.fileName ?? '')] : incoming.files.map((f) => f.path);
      if (new Set(paths).size !== paths.length) throw badParam('file', 'holds the same path twice');
      for (const path of paths) {
        const there = existing.has(path);
        if (mode === 'add' && there && !incoming.archive) {
          throw new ApiError(400, 'Resource already exists.', [`The item already has a resource '${path}'; use updateResources to replace it.`], undefined, {
            fileName: 'names a resource the item already has',
          });
        }
        if (mode === 'update' && !there) throw resourceNotFound(path);
      }
      // Limits over what the item will hold afterwards.
      const after = new Map([...existing].map(([path, r]) => [path, Number(r.size)]));
      for (const f of incoming.files) after.set(f.path, f.size);
      if (after.size > LIMITS.resourcesPerItem) {
        throw new ApiError(400, `An item may hold at most ${LIMITS.resourcesPerItem} resources.`, [`The item would hold ${after.size} resources.`]);
      }
      const bytes = [...after.values()].reduce((a, b) => a + b, 0);
      if (bytes > LIMITS.resourcesBytesPerItem) {
        throw new ApiError(400, `An item's resources may hold at most ${LIMITS.resourcesBytesPerItem / 1024 ** 3} GB.`, [`They would hold ${bytes} bytes.`]);
      }
      for (const f of incoming.files) {
        const old = existing.get(f.path);
        if (old) replaced.push(old.blob_key);
        const access: ResourceAccess = p.access ?? old?.access ?? 'inherit';
        await insertResource(q, {
          item_id: row.id,
          path: f.path,
          blob_key: f.key,
          size: f.size,
          access,
          created: old ? Number(old.created) : now,
          modified: now,
        });
      }
      if (!incoming.files.length && p.access) {
        await setResourceAccess(q, row.id, paths[0], p.access, now);
      }
      const added = paths.filter((path) => !existing.has(path));
      const updated = paths.filter((path) => existing.has(path));
      await resourcesChanged(q, caller, row, bytes, now, {
        ...(added.length ? { added } : {}),
        ...(updated.length ? { updated } : {}),
        ...(p.access ? { access: p.access } : {}),
      });
      return { success: true as const, itemId: row.id, owner: row.owner_username, folder: row.folder_id ?? '' };
    });
    await removeBlobsQuietly(ctx.blobs, replaced, ctx.log);
    return result;
  } catch (err) {
    await removeStored(ctx, incoming.files);
    throw err;
  }
}

/**
 * The item's resources changed: its size (data and resources) follows, and the change is one item
 * update in its history (none when nothing changed, e.g. a refused removal).
 */
async function resourcesChanged(q: Queryable, caller: Caller, row: ItemRow, bytes: number, now: number, change: Record<string, unknown> | null) {
  await setItemResourcesSize(q, row.id, bytes, now);
  if (!change) return;
  await recordEvent(q, {
    orgId: row.org_id,
    source: 'item',
    operation: 'update',
    subjectId: row.id,
    actor: actorOf(caller),
    when: now,
    history: { owner: row.owner_username, title: row.title, data: { resources: change } },
  });
}

/** Files this request stored and no row refers to (a refused or failed change). */
const removeStored = (ctx: PortalContext, files: readonly { key: string }[]) =>
  removeBlobsQuietly(
    ctx.blobs,
    files.map((f) => f.key),
    ctx.log,
  );

export async function removeResources(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  username: string,
  itemId: string,
  p: z.output<typeof removeResourcesParams>,
) {
  if (!p.deleteAll && !p.resource?.trim()) throw badParam('resource', 'is required (or deleteAll=true)');
  const now = ctx.clock.now();
  const { keys, result } = await ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await changeableItem(q, caller, reach, username, itemId);
    let removed: ResourceRow[];
    if (p.deleteAll) removed = await deleteResourceRows(q, row.id);
    else {
      const path = resourcePath(undefined, p.resource ?? '', 'resource');
      removed = await deleteResourceRows(q, row.id, path);
      if (!removed.length) throw resourceNotFound(path);
    }
    const totals = await resourceTotals(q, row.id);
    await resourcesChanged(q, caller, row, totals.bytes, now, removed.length ? { removed: removed.map((r) => r.path).sort() } : null);
    return { keys: removed.map((r) => r.blob_key), result: { success: true as const } };
  });
  await removeBlobsQuietly(ctx.blobs, keys, ctx.log);
  return result;
}

/**
 * Whether the caller reads a resource of an item they can see: a private one only its owner and
 * whom the read's declaration reaches in the item's organization (`reach`: itemResources and
 * itemResource, widened by portal:admin:viewItems). A `public` resource is read like an inherited
 * one: the item's sharing decides whether anyone reaches it at all (a resource never shows an item
 * its sharing hides).
 */
export function mayReadResource(row: ItemRow, caller: Caller | null, reach: Reach, access: ResourceAccess): boolean {
  if (access !== 'private') return true;
  return !!caller && (row.owner_id === caller.userId || reach.others(row.org_id));
}

export async function listResources(ctx: PortalContext, caller: Caller | null, reach: Reach, itemId: string, p: z.output<typeof listResourcesParams>) {
  const row = await visibleItem(ctx.db, itemId, caller);
  const all = (await resourcesOf(ctx.db, row.id)).filter((r) => mayReadResource(row, caller, reach, r.access));
  const key = (r: ResourceRow) => (p.sortField === 'resource' ? r.path : Number(p.sortField === 'size' ? r.size : r.created));
  all.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const c = x < y ? -1 : x > y ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    return p.sortOrder === 'desc' ? -c : c;
  });
  const page = all.slice(p.start - 1, p.start - 1 + p.num);
  const next = p.start + page.length;
  return {
    total: all.length,
    start: p.start,
    num: page.length,
    nextStart: page.length > 0 && next <= all.length ? next : -1,
    resources: page.map((r): ItemResource => ({ resource: r.path, access: r.access, created: Number(r.created), size: Number(r.size) })),
  };
}

/** One resource of an item the caller can see, or the error saying why not. */
export async function readableResource(ctx: PortalContext, caller: Caller | null, reach: Reach, itemId: string, path: string): Promise<ResourceRow> {
  const row = await visibleItem(ctx.db, itemId, caller);
  const [found] = await resourcesOf(ctx.db, row.id, path);
  if (!found) throw resourceNotFound(path);
  if (!mayReadResource(row, caller, reach, found.access)) throw forbidden("Only the item's owner or an administrator can read a private resource.");
  return found;
}
