/**
 * What every way of storing an item's file shares (addItem, a committed upload, the dataUrl job):
 * the fields derived from the stored file, and removing blobs no row keeps. Kept apart from add.ts so
 * items' service can offer them to the job runner without importing addItem's dependencies.
 */
import type { ItemFields } from '../../../shared/contract/items.ts';
import type { PortalContext } from '../../context.ts';
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { afterItemFileStored } from './fileHooks.ts';
import { updateItemRow } from './repo.ts';

export async function removeBlobs(ctx: PortalContext, keys: readonly string[]): Promise<void> {
  await removeBlobsQuietly(ctx.blobs, keys, ctx.log);
}

/** After a file is stored: the hook's derived fields fill what the caller did not send. */
export async function applyFileFields(
  ctx: PortalContext,
  q: Queryable,
  sent: ItemFields,
  file: { itemId: string; blobKey: string; fileName: string; size: number },
): Promise<void> {
  const derived = await afterItemFileStored(ctx, q, file);
  const cols: Record<string, unknown> = {};
  if (derived.name) cols.name = derived.name;
  if (derived.title && !sent.title) cols.title = derived.title;
  if (derived.thumbnail) cols.thumbnail = derived.thumbnail;
  if (derived.documentation && !sent.documentation) cols.documentation = derived.documentation;
  await updateItemRow(q, file.itemId, cols);
}
