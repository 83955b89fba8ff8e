/**
 * The recycle bin (ArcGIS Online, June 2024; docs/rest-operations.md "Recycle bin"): `delete` moves an
 * item there unless `permanentDelete=true`; `restore`, `canRestore`, `canRecycle` act on one item
 * by its owner's content path; `content/portals/<orgId>?recycleBinItems=true` lists it.
 */
import { ownerOr } from '../authority.ts';
import { content } from './items.ts';

/** How long a recycled item can be restored (the documented 14 days, 336 hours). */
export const RECYCLE_BIN_RETENTION_MS = 14 * 24 * 3_600_000;

export const RECYCLE_BIN_OPERATIONS = {
  /** Restoring another member's item, or deleting it from the bin: as deleting it. */
  restoreItem: ownerOr('portal:admin:deleteItems'),
  canRestoreItem: ownerOr('portal:admin:deleteItems'),
  canRecycleItem: content(ownerOr('portal:admin:deleteItems')),
  /** Listing: the caller's own recycled items; every member's with portal:admin:viewItems. */
  recycleBinItems: ownerOr('portal:admin:viewItems'),
} as const;

/** One recycled item as the listing gives it: the item's card plus when it goes. */
export interface RecycledItem {
  id: string;
  owner: string;
  orgId: string;
  title: string;
  type: string;
  size: number;
  ownerFolder: string | null;
  /** Epoch ms of the delete. */
  deleted: number;
  deletedBy: string | null;
  /** Epoch ms after which it is purged. */
  expires: number;
}

export interface RecycledItemsResponse {
  total: number;
  start: number;
  num: number;
  nextStart: number;
  items: RecycledItem[];
}
