/**
 * Reassigning items (spec §4.5, §4.8; facts §3.4, §3.7): reassign, canReassign, canReassignItems
 * and reassignItems, and the shape of a blocked item in the CONT_0291 error's `details`.
 */
import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { commaList } from './wire.ts';
import { authorityFirst, ownerNeeding, ownerOr, type Authority } from '../authority.ts';
import type { Privilege } from '../privileges.ts';
import { FOLDER_TITLE_MAX_CHARS, FOLDER_TITLE_RULE, folderTitleProblem } from '../folderTitle.ts';

const targetUsername = z.string().trim().min(1, 'is required').max(LIMITS.usernameMaxChars, `must be at most ${LIMITS.usernameMaxChars} characters`);

/** "/" (or nothing) is the root folder; any other name is a folder title or id of the target (shared/folderTitle.ts). */
const folderName = z
  .string()
  .trim()
  .max(FOLDER_TITLE_MAX_CHARS, `must be at most ${FOLDER_TITLE_MAX_CHARS} characters`)
  .refine((t) => t === '' || t === '/' || !folderTitleProblem(t), `must be "/" for the root folder, or a title that ${FOLDER_TITLE_RULE}`);

const itemIds = commaList.pipe(
  z
    .array(z.string().max(64, 'must hold item ids of at most 64 characters'))
    .min(1, 'must name at least one item')
    .max(LIMITS.itemsPerReassignRequest, `may name at most ${LIMITS.itemsPerReassignRequest} items`),
);

/** `targetFoldername` is the spelling in Esri's own example (facts §3.4); both are accepted. */
const folderParams = { targetFolderName: folderName.optional(), targetFoldername: folderName.optional() };
const oneFolder = <T extends { targetFolderName?: string; targetFoldername?: string }>({ targetFoldername, targetFolderName, ...rest }: T) => ({
  ...rest,
  targetFolderName: targetFolderName || targetFoldername || '/',
});

export const reassignParams = z.object({ targetUsername, ...folderParams }).transform(oneFolder);
export const canReassignParams = z.object({ targetUsername, item: z.string().max(64).optional() });
export const canReassignItemsParams = z.object({ items: itemIds, targetUsername });
export const reassignItemsParams = z.object({ items: itemIds, targetUsername, ...folderParams }).transform(oneFolder);

/** Why an item cannot go to the target (the local portal's extra on each blocked item). */
export const BLOCK_REASONS = [
  'itemNotFound',
  'itemNotReady',
  'targetIsOwner',
  'targetOtherOrg',
  'targetDisabled',
  'targetCannotReceive',
  'targetCannotOwn',
  'targetNotInGroup',
  'targetNotGroupManager',
  'relatedItemStays',
  'viewOfView',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** One blocked item in the CONT_0291 error's `details` (spec §4.5), with the local extras after `owner`. */
export interface BlockedItem {
  itemId: string;
  type: string;
  url: string | null;
  reservedTypeKeywords: string[];
  owner: string;
  /** Local extra (real clients ignore it): the first reason, readable. */
  reason: string;
  /** Local extra: every reason, each with a code and what it concerns. */
  reasons: { code: BlockReason; message: string; groupId?: string; groupTitle?: string; relatedItemId?: string }[];
}

/** `canReassignItems` answer when every item may go. */
export interface CanReassignItemsResult {
  results: { itemId: string; success: boolean }[];
}

/** One entry of `reassignItems`. */
export interface ReassignItemResult {
  itemId: string;
  success: boolean;
  /** Local extra: scheduled tasks of the item deactivated by the transfer. */
  tasksDeactivated?: number;
  /** Local extra: the sharing the target may not keep, taken away ("Everyone", "Organization"). */
  unsharedFrom?: string[];
  error?: { code: number; messageCode?: string; message: string; details: BlockedItem[] };
}

export interface ReassignItemsAnswer {
  results: ReassignItemResult[];
}

export { RESERVED_TYPE_KEYWORDS } from '../typeKeywords.ts';

/**
 * Who may call each reassign operation (content/users/<u>/items/<id>/reassign, canReassign,
 * canReassignItems, reassignItems): the owner with portal:user:reassignItems (ownerNeeds), or an
 * administrator of the owner's organization with portal:admin:reassignItems (their own items too:
 * asked first).
 */
const reassign = () => authorityFirst(ownerNeeding('portal:user:reassignItems', ownerOr('portal:admin:reassignItems')));

export const REASSIGN_OPERATIONS = {
  reassignItem: reassign(),
  canReassignItem: reassign(),
  canReassignItems: reassign(),
  reassignItems: reassign(),
} as const satisfies Record<string, Authority>;

/** Who sees an item besides whom it is shared with by group. */
export type ItemAccess = 'private' | 'org' | 'public';

/**
 * The widest of `access` a new owner keeps after a transfer, by what they hold (`holds`): public
 * needs portal:user:shareToPublic (else the organization with portal:user:shareToOrg), the
 * organization needs portal:user:shareToOrg, else private. The service applies it on reassign; the
 * console predicts it before one.
 */
export function accessOwnerMayGive(holds: (privilege: Privilege) => boolean, access: ItemAccess): ItemAccess {
  let given = access;
  if (given === 'public' && !holds('portal:user:shareToPublic')) given = holds('portal:user:shareToOrg') ? 'org' : 'private';
  if (given === 'org' && !holds('portal:user:shareToOrg')) given = 'private';
  return given;
}
