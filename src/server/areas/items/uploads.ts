/**
 * Multipart uploads (spec §4.1 rule 10, facts §3.1/§3.4): after addItem with multipart=true the
 * owner sends parts 1–10000 in any order (a re-sent number replaces the old part), lists them,
 * commits (the parts are joined in order into one file, streamed — never held in memory — and
 * must run 1..N without gaps) or cancels. `status` reports partial | processing | completed |
 * failed for uploads and async jobs alike.
 *
 * A part whose token came first is stored while it arrives (streamedParts.ts); otherwise (the
 * token after the file, as rest-js sends it) it comes as a temporary file and is moved in here.
 * In an object store, large parts become parts of the item's upload there (storeNumbers.ts).
 */
import { z } from 'zod';
import { itemFields } from '../../../shared/contract/items.ts';
import { wireInt } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import type { Reach } from '../../http/reach.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import type { StoredUpload, UploadedFile } from '../../http/params.ts';
import { BlobStoreUnavailableError } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { fieldColumns, uploadedFile } from './add.ts';
import { applyFileFields, removeBlobs } from './storedFile.ts';
import { discardUpload } from './discardUpload.ts';
import { itemNotFound } from './access.ts';
import { findItem, findUploadItem, lockItem, updateItemRow, type ItemRow, type UploadItemRow } from './repo.ts';
import { joinParts } from './joinParts.ts';
import { deleteUploadParts, findStoreUpload, markCommitFailed, markJoinFailed, markJoiningParts, partNumbersOf, partsOf, upsertPart } from './repo/uploads.ts';
import { failedItemJob } from './repo/jobs.ts';
import { notPartial, storeBlock, storeUploadWithNumbers } from './storeNumbers.ts';

export const addPartParams = z.object({
  partNum: wireInt(1, 10_000),
  file: uploadedFile,
});

export const commitParams = itemFields;

/**
 * The item, if it is the caller's. That the caller is the path's user, holding what the owner needs
 * (ITEM_OPERATIONS' content()), operation() and the upload intake decided from the declaration.
 */
export async function ownUpload(q: Queryable, caller: Caller, itemId: string): Promise<UploadItemRow> {
  const row = await findUploadItem(q, itemId);
  if (!row || row.owner_id !== caller.userId) throw itemNotFound(itemId);
  return row;
}

export async function addPart(ctx: PortalContext, caller: Caller, itemId: string, partNum: number, file: UploadedFile) {
  // A part stored while it arrived had its upload checked to be the caller's before its first byte
  // (streamedParts.ts); the transaction below checks again under the item's lock.
  if (!file.stored) await ownUpload(ctx.db, caller, itemId);
  if (file.stored) file.stored.claimed = true;
  const stored = file.stored ?? (await storeSpooledPart(ctx, itemId, partNum, file));
  let old: string | null | undefined;
  try {
    old = await ctx.db.tx(async (q) => {
      const row = await findUploadItem(q, itemId, true);
      if (!row || row.owner_id !== caller.userId) throw itemNotFound(itemId);
      if (row.status !== 'partial') throw notPartial(row);
      if (stored.storeParts.length) await checkStoreBlock(q, itemId, partNum, stored);
      // The latest attempt's store parts replace the earlier one's (whose numbers no commit lists);
      // the earlier attempt's file, read in the same statement (as it was before it), is removed after.
      return upsertPart(q, itemId, partNum, {
        blobKey: stored.blobKey,
        etag: stored.storeParts[0]?.etag ?? null,
        storeParts: stored.storeParts.length ? JSON.stringify(stored.storeParts) : null,
        size: stored.size,
      });
    });
  } catch (err) {
    if (stored.blobKey) await removeBlobs(ctx, [stored.blobKey]);
    throw err;
  }
  if (old) await removeBlobs(ctx, [old]);
  return { success: true, id: itemId };
}

/**
 * A streamed part's store parts lie in the block of the number read before its file (a field after
 * the file could name another part).
 */
async function checkStoreBlock(q: Queryable, itemId: string, partNum: number, stored: StoredUpload): Promise<void> {
  const upload = await findStoreUpload(q, itemId);
  const block = upload && storeBlock(upload, partNum);
  if (!stored.storeParts.every((p) => block && p.n >= block.first && p.n <= block.last))
    throw badParam('partNum', 'differs from the partNum given before the file', 'Unable to add the part.');
}

/**
 * A part that came as a temporary file. One the object store takes as a part of its own (5 MiB or
 * more) goes into the item's upload there under a fresh number of its block, and commit copies
 * nothing; smaller parts, every part on disk, and a part whose block has no number left are files.
 */
async function storeSpooledPart(ctx: PortalContext, itemId: string, partNum: number, file: UploadedFile): Promise<StoredUpload> {
  const multipart = ctx.blobs.multipart;
  if (multipart && file.size >= multipart.minPartBytes) {
    const { upload, numbers } = await storeUploadWithNumbers(ctx, itemId, partNum, 1);
    if (numbers) {
      const etag = await multipart.putPart(upload.blob_key, upload.upload_id, numbers.first, file.path);
      return { blobKey: null, storeParts: [{ n: numbers.first, etag }], size: file.size };
    }
  }
  const blobKey = ctx.blobs.newKey();
  const size = await ctx.blobs.adopt(blobKey, file.path);
  return { blobKey, storeParts: [], size };
}

export async function listParts(ctx: PortalContext, caller: Caller, itemId: string) {
  await ownUpload(ctx.db, caller, itemId);
  return { parts: await partNumbersOf(ctx.db, itemId) };
}

/** Part numbers missing from 1..max, condensed for a message. */
function missingParts(nums: number[]): number[] {
  const have = new Set(nums);
  const max = nums.length ? Math.max(...nums) : 0;
  const missing: number[] = [];
  for (let n = 1; n <= max; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

export async function commitUpload(ctx: PortalContext, caller: Caller, itemId: string, fields: z.output<typeof commitParams>) {
  await ownUpload(ctx.db, caller, itemId);
  // 1. Check and mark processing (no part may change while the file is joined).
  const { parts, row, upload } = await ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = (await findItem(q, itemId))!;
    if (row.status !== 'partial') throw notPartial(row);
    if (!(fields.title ?? row.title) || !(fields.type ?? row.type)) {
      throw new ApiError(400, "'type' and 'title' property required.", ["'type' and 'title' property required."], undefined, {
        title: 'is required',
        type: 'is required',
      });
    }
    const parts = await partsOf(q, itemId);
    if (!parts.length) throw badParam('partNum', 'no parts were uploaded: add part 1 before committing', 'Unable to commit the upload.');
    const missing = missingParts(parts.map((p) => p.part_num));
    if (missing.length) {
      const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')} … (${missing.length} in all)` : missing.join(', ');
      throw new ApiError(400, `Unable to commit the upload: parts ${shown} are missing.`, [`Missing part numbers: ${shown}`], undefined, {
        partNum: `missing ${shown}`,
      });
    }
    await markJoiningParts(q, itemId);
    const upload = await findStoreUpload(q, itemId);
    return { parts, row, upload };
  });
  // 2. Join the parts into one blob.
  let joined: { key: string; size: number; leftover: string[] };
  try {
    joined = await joinParts(ctx, itemId, parts, upload);
  } catch (err) {
    // Still partial with every part kept: the owner can commit again.
    await markJoinFailed(ctx.db, itemId, `Joining the parts failed: ${(err as Error).message}`);
    if (err instanceof BlobStoreUnavailableError) throw err;
    throw new ApiError(500, 'The uploaded parts could not be joined.', [(err as Error).message]);
  }
  const { key, size } = joined;
  // 3. Record the file, the fields, completion; drop the parts.
  const now = ctx.clock.now();
  try {
    await ctx.db.tx(async (q) => {
      await lockItem(q, itemId);
      await updateItemRow(q, itemId, {
        ...fieldColumns(fields),
        data_kind: 'file',
        data_blob: key,
        data_mime: 'application/octet-stream',
        size,
        status: 'completed',
        status_message: null,
        modified: now,
      });
      await applyFileFields(ctx, q, fields, { itemId, blobKey: key, fileName: row.name ?? 'file', size });
      await deleteUploadParts(q, itemId);
      await recordEvent(q, {
        orgId: row.org_id,
        source: 'item',
        operation: 'update',
        subjectId: itemId,
        actor: actorOf(caller),
        when: now,
        properties: { commit: true },
        history: { owner: row.owner_username, title: row.title, data: { after: { size }, commit: true } },
      });
    });
  } catch (err) {
    // The store's completed upload holds the kept parts: another commit joins from it.
    if (key !== upload?.blob_key) await removeBlobs(ctx, [key]);
    await markCommitFailed(ctx.db, itemId);
    throw err;
  }
  await removeBlobs(ctx, [...parts.flatMap((p) => (p.blob_key ? [p.blob_key] : [])), ...joined.leftover]);
  return { success: true, id: itemId };
}

export async function cancelUpload(ctx: PortalContext, caller: Caller, itemId: string) {
  await ownUpload(ctx.db, caller, itemId);
  const { row, discarded } = await discardUpload(ctx, itemId, actorOf(caller), { cancelledUpload: true });
  if (!row) throw itemNotFound(itemId);
  if (!discarded) throw notPartial(row);
  return { success: true };
}

/** Owner, or whom itemStatus's declaration (`reach`) admits in the item's organization; a failed download's job answers once its item is gone. */
export async function itemStatus(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string) {
  const row = await findItem(ctx.db, itemId);
  if (!row) return failedDownloadStatus(ctx, caller, reach, username, itemId);
  const admin = reach.others(row.org_id);
  if (row.owner_username.toLowerCase() !== username.toLowerCase() || (row.owner_id !== caller.userId && !admin)) throw itemNotFound(itemId);
  return { status: row.status, statusMessage: row.status_message ?? defaultMessage(row.status), itemId: row.id };
}

/** A background download that failed removed its item: the status still says so, with the reason, to its owner (or an administrator). */
async function failedDownloadStatus(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string) {
  const job = await failedItemJob(ctx.db, itemId);
  const mayRead = !!job && (job.owner_id === caller.userId || reach.others(job.org_id));
  if (!job || job.owner_username.toLowerCase() !== username.toLowerCase() || !mayRead) throw itemNotFound(itemId);
  return { status: 'failed', statusMessage: job.message ?? defaultMessage('failed'), itemId };
}

function defaultMessage(status: ItemRow['status']): string {
  switch (status) {
    case 'partial':
      return 'Multipart upload in progress.';
    case 'processing':
      return 'Processing.';
    case 'completed':
      return 'Completed.';
    default:
      return 'Failed.';
  }
}
