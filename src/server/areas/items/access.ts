/**
 * Who may see and change an item. Owner always; public items anyone; organization items members
 * of the organization; items shared to a group its members; administrators of the item's
 * organization with the matching privilege.
 */
import type { Item } from '../../../shared/contract/items.ts';
import type { Caller } from '../../http/auth.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { findItem, groupIdsOf, type ItemRow, type ListedItemRow } from './repo.ts';
import { ownerNeedsOf } from '../../http/authority.ts';
import { seesAllItemsOf } from '../../http/policies.ts';
import type { Reach } from '../../http/reach.ts';

export const itemNotFound = (id: string) =>
  new ApiError(400, 'Item does not exist or is inaccessible.', [`Item '${id}' does not exist or is inaccessible.`], MESSAGE_CODES.itemNotFound);

export function canViewItem(row: ItemRow, caller: Caller | null, callerGroups: ReadonlySet<string>): boolean {
  if (row.access === 'public') return true;
  if (!caller) return false;
  if (row.owner_id === caller.userId) return true;
  if ((caller.orgId === row.org_id && row.access === 'org') || seesAllItemsOf(caller, row.org_id)) return true;
  return row.group_ids.some((g) => callerGroups.has(g));
}

/** The item if the caller may see it; otherwise the same "does not exist or is inaccessible". */
export async function visibleItem(q: Queryable, id: string, caller: Caller | null): Promise<ItemRow> {
  const row = await findItem(q, id);
  const groups = caller ? await groupIdsOf(q, caller.userId) : new Set<string>();
  if (!row || !canViewItem(row, caller, groups)) throw itemNotFound(id);
  return row;
}

/**
 * The owner holding what the declaration asks of them (ownerNeeds: content creation for
 * ITEM_OPERATIONS' content operations), or whom the operation's declaration admits in the item's
 * organization — `reach`, what the wrapper worked out from the operation's declaration
 * (updateItem, deleteItem…). Asked inside the operation's transaction, on the row it has locked.
 */
export function assertMayChange(row: ItemRow, caller: Caller, reach: Reach): void {
  const owner = row.owner_id === caller.userId;
  if (owner && reach.ownerHolds()) return;
  if (reach.others(row.org_id)) return;
  const operation = reach.authority;
  throw forbidden(
    owner
      ? `Requires the privilege ${ownerNeedsOf(operation)}.`
      : `Only the owner or an administrator (${operation.kind === 'ownerOr' ? operation.privileges.join(', ') : 'default administrator'}) can change this item.`,
  );
}

export function toItem(row: ListedItemRow): Item {
  return {
    id: row.id,
    owner: row.owner_username,
    orgId: row.org_id,
    created: row.created,
    modified: row.modified,
    guid: null,
    name: row.name,
    title: row.title,
    type: row.type,
    typeKeywords: row.type_keywords,
    description: row.description,
    tags: row.tags,
    snippet: row.snippet,
    thumbnail: row.thumbnail,
    documentation: row.documentation,
    extent: row.extent,
    categories: row.categories,
    spatialReference: row.spatial_reference,
    accessInformation: row.access_information,
    licenseInfo: row.license_info,
    culture: row.culture,
    properties: row.properties,
    url: row.url,
    proxyFilter: null,
    access: row.access === 'private' && row.group_ids.length ? 'shared' : row.access,
    // Resources count toward the item's size (Add Resources: "The item size is updated to include the size of added resource files").
    size: Number(row.size) + Number(row.resources_size ?? 0),
    appCategories: row.app_categories,
    industries: row.industries,
    languages: row.languages,
    largeThumbnail: row.large_thumbnail,
    banner: row.banner,
    screenshots: row.screenshots,
    listed: false,
    numComments: 0,
    numRatings: 0,
    avgRating: 0,
    numViews: row.num_views,
    protected: row.protected,
    contentStatus: row.content_status,
    // Local extra (setContentStatus replacedBy): only on a deprecated item that names its replacement.
    ...(row.replaced_by ? { replacedBy: row.replaced_by } : {}),
    ownerFolder: row.folder_id,
    ...(row.status !== 'completed' ? { itemStatus: row.status } : {}),
  };
}
