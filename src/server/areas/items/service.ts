import type { FolderRow } from './repo.ts';

/**
 * What other areas use of items' storage, exposed here so they depend on this module and not on
 * the SQL module (the item rules they use live beside it: access.ts, read.ts, status.ts…).
 *
 * `SELECT_ITEM` and `ItemRow` are the item row as every reader selects it (owner name and group
 * shares joined): the relationships and reassign queries join or filter it in their own one query,
 * so they read the same row as the items repo without a second round trip.
 */
export {
  deleteItemRow,
  findFolder,
  findItem,
  findItems,
  groupIdsOf,
  insertItemRow,
  lockItem,
  SELECT_ITEM,
  updateItemRow,
  type FolderRow,
  type ItemRow,
} from './repo.ts';
// The background runners' part of items (jobs/retention.ts, jobs/itemJobs.ts): the rows they sweep
// or claim, and what storing or discarding an item's file does.
export { discardUpload } from './discardUpload.ts';
export { applyFileFields, removeBlobs } from './storedFile.ts';
export { abandonedUploads, activeStoreUploadIds } from './repo/uploads.ts';
export {
  anyItemJobDue,
  deleteDueJobsOfDeletedItems,
  deleteFinishedItemJobs,
  lockDueItemJob,
  lockItemStatus,
  markItemJobDone,
  markItemJobFailed,
  markItemJobRunning,
  nextItemJobDue,
  renewItemJobLease,
  type ItemJobRow,
} from './repo/jobs.ts';
export { unreferencedBlobKeys } from './repo/blobKeys.ts';
// The item rules other areas apply to items they reach (relationships, dependencies, reassign,
// recycle bin, resources, proxy): who may see or change an item, and its wire record.
export { assertMayChange, canViewItem, itemNotFound, toItem, visibleItem } from './access.ts';
// What resources, groups, portals and reassign share of items' file handling, paths and history.
export { extractZipFiles, safeRelativePath, startsLikeZip, type ExtractedFile } from './esriinfo.ts';
export { keepUploadedFile } from './uploadedFiles.ts';
export { imageFormat, THUMBNAIL_MAX_BYTES } from './thumbnails.ts';
export { OWNER_ITEM_PATHS } from './ownerItemPaths.ts';
export { applyOrgVerification } from './orgVerification.ts';
export { folderNames } from './historyState.ts';

/** A folder as the wire names it: the member's content listing and the folders area answer with it. */
export const folderRecord = (f: FolderRow, username: string) => ({ username, id: f.id, title: f.title, created: f.created });
