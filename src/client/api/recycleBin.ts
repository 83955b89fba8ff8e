/**
 * The recycle bin (ArcGIS Online; absent on ArcGIS Enterprise): the listing, restore, and delete for
 * good. Whether a portal has one is its `recycleBinEnabled` (portals/self).
 */
import type { RecycledItem, RecycledItemsResponse } from '../../shared/contract/recycleBin.ts';
import type { Portal } from '../../shared/contract/portals.ts';
import { request, type RequestOptions } from './request.ts';

export type { RecycledItem };

const ownedItem = (owner: string, itemId: string) => `content/users/${encodeURIComponent(owner)}/items/${encodeURIComponent(itemId)}`;

export const hasRecycleBin = (portal: Pick<Portal, 'recycleBinEnabled'> | undefined) => portal?.recycleBinEnabled === true;

export function getRecycledItems(p: { start: number; num: number }, options: Pick<RequestOptions, 'signal'> = {}): Promise<RecycledItemsResponse> {
  return request('content/portals/self', { recycleBinItems: true, start: p.start, num: p.num, sortOrder: 'desc' }, { signal: options.signal });
}

/** Back to `folder` (its id) or, as documented, the owner's root folder. */
export function restoreItem(owner: string, itemId: string, folder?: string | null): Promise<{ itemId: string; success: boolean }> {
  return request(`${ownedItem(owner, itemId)}/restore`, folder ? { folder } : {}, { method: 'POST' });
}

export function deleteItemPermanently(owner: string, itemId: string): Promise<{ success: true }> {
  return request(`${ownedItem(owner, itemId)}/delete`, { permanentDelete: true }, { method: 'POST' });
}
