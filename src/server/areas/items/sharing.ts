/**
 * Sharing items (facts §1.9, §4, Appendix A): share / unshare one item (through the owner's
 * content path or content/items/<id>), shareItems / unshareItems for several.
 *
 * - `everyone=true` makes the item public, else `org=true` makes it the organization's; both sent
 *   false (setItemAccess) make it private. Not sent: the access stays.
 * - `groups` (comma list; " " means none) adds group shares. The sharer must be a member of the
 *   group (or an administrator of the group's organization); a view-only group takes items only
 *   from its owner and managers (or such an administrator). Groups that fail are answered in
 *   `notSharedWith`, not as an error.
 * - The owner needs portal:user:shareToGroup / shareToOrg / shareToPublic; an administrator
 *   sharing another member's item needs portal:admin:shareToGroup / shareToOrg / shareToPublic.
 * - Content status follows public sharing in a verified organization: an org_authoritative item
 *   made public becomes public_authoritative, and back when it stops being public.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { commaList, wireBool } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import { operation, REST } from '../../http/operation.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { itemSharingState, type ItemSharingState } from './historyState.ts';
import { canSeeGroup, findGroup, type GroupRow } from '../groups/service.ts';
import { findOrg } from '../portals/service.ts';
import { itemNotFound, visibleItem } from './access.ts';
import { lockItem, type ItemRow } from './repo.ts';
import { setItemAccess, shareItemToGroup, unshareItemFromGroup } from './repo/sharing.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';
import { assertMayShareAt, reachesMembersContent, sharesOthersItems, unsharesOthersItemsOf, type SharingLevel } from '../../http/policies.ts';

export const shareParams = z.object({
  everyone: wireBool.optional(),
  org: wireBool.optional(),
  groups: commaList.pipe(z.array(z.string().max(64)).max(100, 'may name at most 100 groups')).default([]),
  account: wireBool.optional(),
  confirmItemControl: wireBool.optional(),
});
export type ShareParams = z.output<typeof shareParams>;

export const bulkShareParams = shareParams.extend({
  items: commaList.pipe(z.array(z.string().max(64)).min(1, 'must name at least one item').max(100, 'may name at most 100 items')),
});

/** share and unshare, by the operation's name in the table. */
const SHARING_AUTHORITY = { share: ITEM_OPERATIONS.shareItem, unshare: ITEM_OPERATIONS.unshareItem } as const;

/** Owner: portal:user:shareTo<level>. Administrator of the item's organization on another's item: portal:admin:shareTo<level>. */
function assertMayShare(row: ItemRow, caller: Caller, level: SharingLevel): void {
  const own = row.owner_id === caller.userId;
  if (!own && caller.orgId !== row.org_id) throw forbidden('Only the owner or an administrator of its organization can share this item.');
  assertMayShareAt(caller, own, level);
}

/** Anyone who may share the item at all: the owner, or an administrator of its organization with an admin sharing privilege. */
function assertMayChangeSharing(row: ItemRow, caller: Caller): void {
  if (row.owner_id === caller.userId) return;
  if (caller.orgId === row.org_id && sharesOthersItems(caller)) return;
  throw forbidden('Only the owner or an administrator of its organization can change how this item is shared.');
}

/** Whether the caller may put an item into the group. */
function mayShareTo(group: GroupRow | undefined, caller: Caller): boolean {
  if (!group || !canSeeGroup(group, caller)) return false;
  const manager = group.my_member_type === 'owner' || group.my_member_type === 'admin';
  if (group.is_view_only) return manager || unsharesOthersItemsOf(caller, group.org_id);
  return !!group.my_member_type || unsharesOthersItemsOf(caller, group.org_id);
}

/** Whether the caller may take an item out of the group: who may share, or the group's managers. */
function mayUnshareFrom(group: GroupRow | undefined, caller: Caller, row: ItemRow): boolean {
  if (!group) return false;
  const manager = group.my_member_type === 'owner' || group.my_member_type === 'admin';
  return manager || row.owner_id === caller.userId || unsharesOthersItemsOf(caller, group.org_id) || unsharesOthersItemsOf(caller, row.org_id);
}

/** The status an item's access implies for it in its organization (verified organizations only). */
async function statusAfterAccess(q: Queryable, row: ItemRow, access: ItemRow['access']): Promise<ItemRow['content_status']> {
  const status = row.content_status;
  if (access === 'public' && status === 'org_authoritative') {
    const org = await findOrg(q, row.org_id);
    return org?.is_verified && org.access === 'public' ? 'public_authoritative' : status;
  }
  if (access !== 'public' && status === 'public_authoritative') return 'org_authoritative';
  return status;
}

async function findItemFor(q: Queryable, itemId: string, caller: Caller, owner?: string): Promise<ItemRow> {
  await lockItem(q, itemId);
  const row = await visibleItem(q, itemId, caller);
  if (owner !== undefined && row.owner_username.toLowerCase() !== owner.toLowerCase()) throw itemNotFound(itemId);
  return row;
}

/**
 * The item's share or unshare event: the webhook properties name the groups (and Everyone /
 * Organization), the history the item's whole sharing before and after.
 */
async function recordItemSharing(
  q: Queryable,
  caller: Caller,
  row: ItemRow,
  change: { operation: 'share' | 'unshare'; groups: string[]; before: ItemSharingState; when: number },
): Promise<void> {
  const { operation, groups, before, when } = change;
  await recordEvent(q, {
    orgId: row.org_id,
    source: 'item',
    operation,
    subjectId: row.id,
    actor: actorOf(caller),
    properties: operation === 'share' ? { sharedToGroups: groups } : { unsharedFromGroups: groups },
    when,
    history: { owner: row.owner_username, title: row.title, data: { before, after: await itemSharingState(q, row.id), groups } },
  });
}

/** The share or unshare event of each group the item joined or left: the item as the webhook and history name it. */
async function recordGroupSharing(
  q: Queryable,
  caller: Caller,
  group: GroupRow,
  row: ItemRow,
  change: { operation: 'share' | 'unshare'; when: number },
): Promise<void> {
  const items = [{ itemId: row.id, itemType: row.type }];
  await recordEvent(q, {
    orgId: group.org_id,
    source: 'group',
    operation: change.operation,
    subjectId: group.id,
    actor: actorOf(caller),
    properties: change.operation === 'share' ? { sharedItems: items } : { unsharedItems: items },
    when: change.when,
    history: { title: group.title, data: { items: [{ itemId: row.id, title: row.title }] } },
  });
}

export async function shareItemIn(ctx: PortalContext, q: Queryable, caller: Caller, itemId: string, p: ShareParams, owner?: string) {
  const now = ctx.clock.now();
  const row = await findItemFor(q, itemId, caller, owner);
  assertMayChangeSharing(row, caller);
  const before = await itemSharingState(q, row.id);
  let access = row.access;
  if (p.everyone === true) {
    assertMayShare(row, caller, 'Public');
    access = 'public';
  } else if (p.org === true) {
    assertMayShare(row, caller, 'Org');
    access = 'org';
  } else if (p.everyone === false && p.org === false) {
    access = 'private';
  }
  if (p.groups.length) assertMayShare(row, caller, 'Group');
  const notSharedWith: string[] = [];
  const added: GroupRow[] = [];
  for (const gid of [...new Set(p.groups)]) {
    const group = await findGroup(q, gid, caller.userId);
    if (!mayShareTo(group, caller)) {
      notSharedWith.push(gid);
      continue;
    }
    if (await shareItemToGroup(q, row.id, gid, now)) added.push(group!);
  }
  const sharedTo: string[] = added.map((g) => g.id);
  if (access !== row.access) {
    const status = await statusAfterAccess(q, row, access);
    await setItemAccess(q, row.id, access, status, now);
    if (access === 'public') sharedTo.push('Everyone');
    else if (access === 'org' && row.access === 'private') sharedTo.push('Organization');
    const unsharedFrom =
      row.access === 'public'
        ? access === 'org'
          ? ['Everyone']
          : ['Everyone', 'Organization']
        : row.access === 'org' && access === 'private'
          ? ['Organization']
          : [];
    if (unsharedFrom.length) await recordItemSharing(q, caller, row, { operation: 'unshare', groups: unsharedFrom, before, when: now });
  }
  if (sharedTo.length) await recordItemSharing(q, caller, row, { operation: 'share', groups: sharedTo, before, when: now });
  for (const g of added) await recordGroupSharing(q, caller, g, row, { operation: 'share', when: now });
  return { notSharedWith, itemId: row.id };
}

export async function unshareItemIn(ctx: PortalContext, q: Queryable, caller: Caller, itemId: string, p: ShareParams, owner?: string) {
  const now = ctx.clock.now();
  const row = await findItemFor(q, itemId, caller, owner);
  const before = await itemSharingState(q, row.id);
  const notUnsharedFrom: string[] = [];
  const removed: GroupRow[] = [];
  for (const gid of [...new Set(p.groups)]) {
    const group = await findGroup(q, gid, caller.userId);
    if (!mayUnshareFrom(group, caller, row)) {
      notUnsharedFrom.push(gid);
      continue;
    }
    if (await unshareItemFromGroup(q, row.id, gid)) removed.push(group!);
  }
  const unsharedFrom: string[] = removed.map((g) => g.id);
  let access = row.access;
  if (p.everyone === true && row.access === 'public') access = 'org';
  if (p.org === true && row.access !== 'private') access = 'private';
  if (access !== row.access) {
    assertMayChangeSharing(row, caller);
    const status = await statusAfterAccess(q, row, access);
    await setItemAccess(q, row.id, access, status, now);
    if (row.access === 'public') unsharedFrom.push('Everyone');
    if (access === 'private') unsharedFrom.push('Organization');
  }
  if (unsharedFrom.length) await recordItemSharing(q, caller, row, { operation: 'unshare', groups: unsharedFrom, before, when: now });
  for (const g of removed) await recordGroupSharing(q, caller, g, row, { operation: 'unshare', when: now });
  return { notUnsharedFrom, itemId: row.id };
}

export function itemSharingRoutes(app: FastifyInstance): void {
  type ShareFn = (
    ctx: PortalContext,
    q: Queryable,
    caller: Caller,
    itemId: string,
    p: ShareParams,
    owner?: string,
  ) => Promise<{ itemId: string; notSharedWith?: string[]; notUnsharedFrom?: string[] }>;
  const ops: [keyof typeof SHARING_AUTHORITY, ShareFn][] = [
    ['share', shareItemIn],
    ['unshare', unshareItemIn],
  ];
  for (const [op, fn] of ops) {
    operation(app, {
      method: 'write',
      path: `${REST}/content/users/:username/items/:itemId/${op}`,
      authority: SHARING_AUTHORITY[op],
      params: shareParams,
      handler: ({ caller, path, params, portal }) => portal.db.tx((q) => fn(portal, q, caller, path.itemId, params, path.username)),
    });
    operation(app, {
      method: 'write',
      path: `${REST}/content/items/:itemId/${op}`,
      authority: SHARING_AUTHORITY[op],
      params: shareParams,
      handler: ({ caller, path, params, portal }) => portal.db.tx((q) => fn(portal, q, caller, path.itemId, params)),
    });
    operation(app, {
      method: 'write',
      path: `${REST}/content/users/:username/${op}Items`,
      authority: SHARING_AUTHORITY[op],
      params: bulkShareParams,
      handler: async ({ caller, path, params, portal }) => {
        if (path.username.toLowerCase() !== caller.username.toLowerCase() && !reachesMembersContent(caller)) {
          throw badParam('username', 'must be your own username');
        }
        const results = [];
        // One transaction per item: one item refused does not undo the others.
        for (const itemId of params.items) {
          try {
            const r = await portal.db.tx((q) => fn(portal, q, caller, itemId, params));
            const rest = r.notSharedWith ? { notSharedWith: r.notSharedWith } : { notUnsharedFrom: r.notUnsharedFrom };
            results.push({ itemId, success: true, ...rest });
          } catch (err) {
            const e = err as { code?: number; message?: string };
            results.push({
              itemId,
              success: false,
              ...(op === 'share' ? { notSharedWith: params.groups } : { notUnsharedFrom: params.groups }),
              error: { code: e.code ?? 500, message: e.message ?? 'failed' },
            });
          }
        }
        return { results };
      },
    });
  }
}
