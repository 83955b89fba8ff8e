/** Ending an upload in progress, by its owner's cancel or by the retention sweep of abandoned uploads. */
import type { PortalContext } from '../../context.ts';
import { recordEvent } from '../../store/events.ts';
import { deleteItemRow, findItem, lockItem, type ItemRow } from './repo.ts';
import { findStoreUpload, type StoreUpload } from './repo/uploads.ts';
import { removeBlobs } from './storedFile.ts';

/**
 * Deletes an upload in progress — the item, its parts and their blobs — with a delete event; the
 * owner's cancel and the retention sweep of abandoned uploads (actor null) both end here. Nothing
 * changes unless the item is still partial.
 */
export async function discardUpload(
  ctx: PortalContext,
  itemId: string,
  actor: { userId: string; username: string } | null,
  properties: Record<string, unknown>,
): Promise<{ row?: ItemRow; discarded: boolean }> {
  let abandoned: StoreUpload | undefined;
  const result = await ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await findItem(q, itemId);
    if (!row || row.status !== 'partial') return { row, keys: null };
    const upload = await findStoreUpload(q, itemId);
    const keys = [...(await deleteItemRow(q, itemId)), ...(upload ? [upload.blob_key] : [])];
    if (upload?.upload_id) abandoned = upload;
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: 'delete',
      subjectId: itemId,
      actor,
      when: ctx.clock.now(),
      properties,
      history: { owner: row.owner_username, title: row.title, data: { before: { title: row.title, status: 'partial' }, ...properties } },
    });
    return { row, keys };
  });
  if (result.keys) await removeBlobs(ctx, result.keys);
  // The store's upload of its large parts (retention would abort it later too).
  if (abandoned)
    await ctx.blobs.multipart?.abort(abandoned.blob_key, abandoned.upload_id).catch((err: unknown) => ctx.log.warn({ err }, 'could not abort an upload'));
  return { row: result.row, discarded: result.keys !== null };
}
