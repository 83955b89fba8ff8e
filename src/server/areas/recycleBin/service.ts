/**
 * The recycle bin (docs/rest-operations.md "Recycle bin"): recycle (called by the item's delete),
 * restore, canRestore, canRecycle, permanent delete of a recycled item, the listing, and the
 * retention purge the retention sweep runs. Who may act: the owner, or a member of the item's
 * organization holding the declared privilege (RECYCLE_BIN_OPERATIONS); another organization's
 * recycled items do not exist for the caller.
 */
import { RECYCLE_BIN_OPERATIONS, RECYCLE_BIN_RETENTION_MS, type RecycledItem } from '../../../shared/contract/recycleBin.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import type { Reach } from '../../http/reach.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { itemNotFound, findFolder, type ItemRow } from '../items/service.ts';
import {
  claimExpired,
  deleteItemRow,
  findMemberIdByUsername,
  findRecycled,
  insertRecycled,
  itemExists,
  listRecycled,
  lockRecycled,
  removeRecycled,
  restoreSnapshot,
  snapshotItem,
  userExists,
  type RecycledRow,
} from './repo.ts';
import { authorizedRecycled } from './target.ts';

/** Only finished items go to the bin; an upload in progress or a failed one is deleted for good (as ArcGIS does "unsupported items"). */
export const recyclable = (row: Pick<ItemRow, 'status'>) => row.status === 'completed';

/**
 * Moves the item (locked, checked by the caller's delete) to the bin, inside the delete's
 * transaction: its rows are saved and leave their tables; its files stay.
 */
export async function recycleItem(q: Queryable, row: ItemRow, caller: Caller, now: number): Promise<void> {
  const snapshot = await snapshotItem(q, row.id);
  await insertRecycled(
    q,
    {
      id: row.id,
      org_id: row.org_id,
      owner_id: row.owner_id,
      owner_username: row.owner_username,
      title: row.title,
      type: row.type,
      folder_id: row.folder_id,
      size: Number((snapshot.items[0]?.size as number | undefined) ?? 0),
      deleted: now,
      deleted_by: caller.username,
      expires: now + RECYCLE_BIN_RETENTION_MS,
    },
    snapshot,
  );
  await deleteItemRow(q, row.id);
}

const cannotRestore = (itemId: string, why: string) => ({
  itemId,
  success: false as const,
  error: { code: 400, messageCode: 'CONT_0295', message: `Unable to restore item: ${itemId}.`, details: [why] },
});

async function restoreBlocker(q: Queryable, row: RecycledRow): Promise<string | null> {
  if (!(await userExists(q, row.owner_id))) return 'Its owner is no longer a member of the organization.';
  return (await itemExists(q, row.id)) ? 'An item with its id exists.' : null;
}

/** `row` has been authorized (recycledTarget). */
export async function canRestore(ctx: PortalContext, row: RecycledRow) {
  const blocker = await restoreBlocker(ctx.db, row);
  return blocker ? cannotRestore(row.id, blocker) : { itemId: row.id, success: true as const };
}

/**
 * Restores to `folder` (the owner's folder id or title) or, as documented, to the owner's root folder.
 * `recycled` has been authorized (recycledTarget); it is locked again in the transaction that restores it.
 */
export async function restoreItem(ctx: PortalContext, caller: Caller, recycled: RecycledRow, folder: string | undefined) {
  const now = ctx.clock.now();
  const itemId = recycled.id;
  return ctx.db.tx(async (q) => {
    const row = await lockRecycled(q, itemId);
    if (!row) throw itemNotFound(itemId);
    const blocker = await restoreBlocker(q, row);
    if (blocker) return cannotRestore(itemId, blocker);
    let folderId: string | null = null;
    if (folder && folder !== '/') {
      const found = await findFolder(q, row.owner_id, folder);
      if (!found) throw new ApiError(400, 'Folder not found.', [`Folder '${folder}' does not exist or is inaccessible.`]);
      folderId = found.id;
    }
    const { snapshot } = (await lockRecycled(q, itemId))!;
    const skipped = await restoreSnapshot(q, snapshot, folderId);
    // The entry goes; its files stay, the restored rows refer to them again.
    await removeRecycled(q, itemId);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: 'restore',
      subjectId: row.id,
      actor: actorOf(caller),
      properties: { title: [row.title], type: row.type, folder: folderId },
      when: now,
      history: { op: 'restoreItem', owner: row.owner_username, title: row.title, data: { after: { ownerFolder: folderId }, recycled: row.deleted, skipped } },
    });
    return { itemId, success: true as const };
  });
}

/** `delete` with permanentDelete=true of an item already in the bin: its files go now. */
export async function deleteRecycled(ctx: PortalContext, caller: Caller, username: string, itemId: string) {
  const now = ctx.clock.now();
  const blobs = await ctx.db.tx(async (q) => {
    const row = authorizedRecycled(await lockRecycled(q, itemId), caller, username, itemId, RECYCLE_BIN_OPERATIONS.restoreItem);
    const keys = await removeRecycled(q, itemId);
    await recordPermanentDelete(q, row, actorOf(caller), now, 'permanentDelete');
    return keys;
  });
  await removeBlobsQuietly(ctx.blobs, blobs, ctx.log);
  return { success: true as const, itemId };
}

function recordPermanentDelete(q: Queryable, row: RecycledRow, actor: { userId: string; username: string } | null, now: number, why: string) {
  return recordEvent(q, {
    orgId: row.org_id,
    source: 'item',
    operation: 'delete',
    subjectId: row.id,
    actor,
    properties: { title: [row.title], type: row.type },
    when: now,
    history: { owner: row.owner_username, title: row.title, data: { before: { title: row.title, type: row.type, owner: row.owner_username }, permanent: why } },
  });
}

export async function isRecycled(q: Queryable, itemId: string): Promise<boolean> {
  return !!(await findRecycled(q, itemId));
}

function toRecycledItem(r: RecycledRow): RecycledItem {
  return {
    id: r.id,
    owner: r.owner_username,
    orgId: r.org_id,
    title: r.title,
    type: r.type,
    size: Number(r.size),
    ownerFolder: r.folder_id,
    deleted: Number(r.deleted),
    deletedBy: r.deleted_by,
    expires: Number(r.expires),
  };
}

interface RecycledListParams {
  start: number;
  num: number;
  types?: string[];
  sortOrder: 'asc' | 'desc';
  owner?: string;
}

/** The organization's recycled items the caller may see: their own, or everyone's where the declaration reaches others' (`reach`, the listing's). */
export async function listRecycleBin(ctx: PortalContext, caller: Caller, reach: Reach, portalId: string, p: RecycledListParams) {
  if (portalId !== 'self' && portalId !== caller.orgId) throw forbidden('Another organization’s recycle bin.');
  const everyone = reach.others(caller.orgId);
  let ownerId: string | undefined = everyone ? undefined : caller.userId;
  if (p.owner && everyone) {
    ownerId = (await findMemberIdByUsername(ctx.db, caller.orgId, p.owner)) ?? '-';
  }
  const { total, rows } = await listRecycled(ctx.db, {
    orgId: caller.orgId,
    now: ctx.clock.now(),
    ownerId,
    types: p.types,
    desc: p.sortOrder === 'desc',
    start: p.start,
    num: p.num,
  });
  return { ...pageEnvelope(total, p, rows.length), items: rows.map(toRecycledItem) };
}

/** One retention batch: entries past their 14 days leave for good (each instance claims its own). */
export async function purgeExpired(ctx: PortalContext, now: number, batch: number): Promise<{ removed: number; more: boolean }> {
  const blobs = await ctx.db.tx(async (q) => {
    const rows = await claimExpired(q, now, batch);
    const keys: string[] = [];
    for (const row of rows) {
      keys.push(...(await removeRecycled(q, row.id)));
      await recordPermanentDelete(q, row, null, now, 'retention');
    }
    return { keys, n: rows.length };
  });
  await removeBlobsQuietly(ctx.blobs, blobs.keys, ctx.log);
  return { removed: blobs.n, more: blobs.n >= batch };
}
