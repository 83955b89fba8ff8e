/**
 * Group rules: who sees a group, what may be set on it, who joins it and why a user is not added.
 * Who may act on a group (its owner, its managers, an administrator) is declared with each
 * operation and decided by operation() on the group target (target.ts): the functions taking a
 * `GroupRow` take it as authorized. What stays here depends on the request's content: the fields
 * set (assertFieldPrivileges), who is added or removed, and the caller's own membership rules.
 */
import { removeBlobsQuietly } from '../../store/blobs.ts';
import type { GroupFields, GroupRecord, MembershipAccess, MemberType, NotAddedReason } from '../../../shared/contract/groups.ts';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import { LIMITS } from '../../../shared/limits.ts';
import {
  ADD_EXTERNAL_MEMBERS,
  addUsersVerdict,
  joinPrivilege,
  membershipAccessRefusal as accessRefusal,
  type AddUsersRefusal,
} from '../../../shared/addUsersEligibility.ts';
import { rolePrivileges, type Privilege } from '../../../shared/privileges.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam, forbidden } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import type { HistoryData, HistoryOperation } from '../../../shared/contract/history.ts';
import { hexId } from '../../store/ids.ts';
import { externalMemberLimit } from '../portals/service.ts';
import {
  countExternalMembers,
  countGroupsOfUser,
  deleteGroupRow,
  deleteMembers,
  dropFromNewMemberDefaults,
  findCandidates,
  findGroup,
  GROUP_FIELD_COLUMNS,
  groupIdsOwnedWithTitle,
  infoFileKeysOfGroup,
  insertGroup,
  insertMembers,
  lockGroup,
  lockMember,
  lockMembersByName,
  partneredOrgs,
  setGroupOwner,
  setMemberType,
  setProtectedFlag,
  updateGroupFields,
  type CandidateRow,
  type GroupRow,
} from './repo.ts';
import type { Reach } from '../../http/reach.ts';
import {
  assertMayCreateGroup,
  assertMayDisallowLeaving,
  assertMayJoinGroups,
  assertMayMakeUpdateCapableGroup,
  assertMayShareGroupTo,
  missingPrivileges,
} from '../../http/policies.ts';

/** What the operations' list and read answers take from the repository as it is. */
export { listGroupMembers, searchGroups } from './repo.ts';

/**
 * What other areas use of groups' rows, exposed here so they depend on this service and not on the
 * SQL module: a group by id (with the caller's membership) and a member's groups.
 */
export { findGroup, groupsOfUser, type GroupRow } from './repo.ts';
// Who sees a group (items' sharing and group lists ask it too), and the group a path names as an
// operation's target (the member jobs act on groups as the group operations do).
export { canSeeGroup, visibleGroup } from './visible.ts';
export { groupTarget } from './target.ts';

export function toGroupRecord(row: GroupRow, caller: Caller | null): GroupRecord {
  return {
    id: row.id,
    title: row.title,
    owner: row.owner_username,
    orgId: row.org_id,
    description: row.description,
    snippet: row.snippet,
    tags: row.tags,
    access: row.access,
    isInvitationOnly: row.is_invitation_only,
    isViewOnly: row.is_view_only,
    autoJoin: row.auto_join,
    leavingDisallowed: row.leaving_disallowed,
    hiddenMembers: row.hidden_members,
    protected: row.protected,
    sortField: row.sort_field,
    sortOrder: row.sort_order,
    capabilities: row.capabilities,
    membershipAccess: row.membership_access,
    thumbnail: row.thumbnail ?? null,
    isFav: false,
    isReadOnly: false,
    provider: null,
    created: row.created,
    modified: row.modified,
    ...(caller ? { userMembership: { username: caller.username, memberType: row.my_member_type ?? 'none' } } : {}),
    memberCount: row.member_count,
  };
}

const isManager = (row: GroupRow) => row.my_member_type === 'owner' || row.my_member_type === 'admin';

/** Field rules that need privileges: who may make a group visible, shared-update or leave-proof. */
function assertFieldPrivileges(caller: Caller, fields: GroupFields): void {
  assertMayShareGroupTo(caller, fields.access);
  if (fields.capabilities?.length) {
    const bad = fields.capabilities.filter((c) => c !== 'updateitemcontrol');
    if (bad.length) throw badParam('capabilities', `holds unknown capabilities: ${bad.join(', ')}`);
    assertMayMakeUpdateCapableGroup(caller);
  }
  if (fields.leavingDisallowed) assertMayDisallowLeaving(caller);
}

const titleTaken = (title: string) => badParam('title', `'${title}': you already own a group with this title`, 'Unable to create the group.');

async function assertTitleFree(q: Queryable, ownerId: string, title: string, exceptId?: string): Promise<void> {
  const ids = await groupIdsOwnedWithTitle(q, ownerId, title);
  if (ids.some((id) => id !== exceptId)) throw titleTaken(title);
}

/** The same title saved twice at once: the unique index refuses the second, reported like the check above. */
const uniqueTitle = (title: string | undefined) => (err: unknown) => {
  const e = err as { code?: string; constraint?: string };
  if (title !== undefined && e.code === '23505' && (e.constraint ?? 'groups_owner_title') === 'groups_owner_title') throw titleTaken(title);
  throw err;
};

export async function createGroup(ctx: PortalContext, caller: Caller, fields: GroupFields & { title: string }) {
  assertMayCreateGroup(caller);
  assertFieldPrivileges(caller, fields);
  const now = ctx.clock.now();
  return ctx.db
    .tx(async (q) => {
      await assertTitleFree(q, caller.userId, fields.title);
      await lockMember(q, caller.userId);
      if ((await countGroupsOfUser(q, caller.userId)) >= LIMITS.groupsPerUser) {
        throw new ApiError(400, `You already belong to ${LIMITS.groupsPerUser} groups, the most a member may.`, [
          `A member may belong to at most ${LIMITS.groupsPerUser} groups.`,
        ]);
      }
      const id = hexId();
      await insertGroup(q, { id, orgId: caller.orgId, ownerId: caller.userId, fields, now });
      await insertMembers(q, id, [{ userId: caller.userId, type: 'owner' }], now);
      await recordEvent(q, {
        orgId: caller.orgId,
        source: 'group',
        operation: 'add',
        subjectId: id,
        actor: actorOf(caller),
        properties: { title: [fields.title] },
        when: now,
        history: { owner: caller.username, title: fields.title, data: { after: { ...fields } } },
      });
      const row = await findGroup(q, id, caller.userId);
      return { success: true as const, group: toGroupRecord(row!, caller) };
    })
    .catch(uniqueTitle(fields.title));
}

/** `row` is authorized (owner, manager or portal:admin:updateGroups); the fields set may still need privileges. */
export async function updateGroup(ctx: PortalContext, caller: Caller, row: GroupRow, fields: GroupFields) {
  const now = ctx.clock.now();
  return ctx.db
    .tx(async (q) => {
      assertFieldPrivileges(caller, fields);
      if (fields.title) await assertTitleFree(q, row.owner_id, fields.title, row.id);
      const entries = Object.entries(fields).filter(([, v]) => v !== undefined) as [keyof GroupFields, unknown][];
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const [k, v] of entries) {
        const prev = (row as unknown as Record<string, unknown>)[GROUP_FIELD_COLUMNS[k]] ?? null;
        if (JSON.stringify(prev) !== JSON.stringify(v)) [before[k], after[k]] = [prev, v];
      }
      if (entries.length) await updateGroupFields(q, row.id, entries, now);
      await recordEvent(q, {
        orgId: row.org_id,
        source: 'group',
        operation: 'update',
        subjectId: row.id,
        actor: actorOf(caller),
        when: now,
        history: { owner: row.owner_username, title: fields.title ?? row.title, data: { before, after } },
      });
      return { success: true as const, groupId: row.id };
    })
    .catch(uniqueTitle(fields.title));
}

/** `row` is authorized (owner or portal:admin:deleteGroups). */
export async function deleteGroup(ctx: PortalContext, caller: Caller, row: GroupRow) {
  const now = ctx.clock.now();
  const { result, files } = await ctx.db.tx(async (q) => {
    if (row.protected) throw new ApiError(400, 'The group is protected from deletion.', ['Unprotect the group first.']);
    // Its thumbnail leaves the store once the rows naming it are gone.
    const thumbnails = await infoFileKeysOfGroup(q, row.id);
    await deleteGroupRow(q, row.id);
    // A deleted group is no longer a new-member default (it would otherwise block every later change of the defaults).
    await dropFromNewMemberDefaults(q, row.org_id, row.id);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'group',
      operation: 'delete',
      subjectId: row.id,
      actor: actorOf(caller),
      properties: { title: [row.title] },
      when: now,
      history: { owner: row.owner_username, title: row.title, data: { before: { title: row.title, access: row.access } } },
    });
    return { result: { success: true as const, groupId: row.id }, files: thumbnails };
  });
  await removeBlobsQuietly(ctx.blobs, files, ctx.log);
  return result;
}

/** `row` is authorized (owner or portal:admin:updateGroups). */
export async function setGroupProtected(ctx: PortalContext, caller: Caller, row: GroupRow, value: boolean) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await setProtectedFlag(q, row.id, value, now);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'group',
      operation: value ? 'protect' : 'unprotect',
      subjectId: row.id,
      actor: actorOf(caller),
      when: now,
      history: { owner: row.owner_username, title: row.title, data: { before: { protected: row.protected }, after: { protected: value } } },
    });
    return { success: true as const, groupId: row.id };
  });
}

// ------------------------------------------------------------------ membership

/** What the group's `membershipAccess` says to an outsider it keeps out (addUsers' reason, joinGroup's detail). */
const ACCESS_REFUSALS = {
  'access-org': 'This group accepts only members of its own organization (membershipAccess=org).',
  'access-collaboration':
    'This group accepts only members of its organization and of organizations in a partnered collaboration with it (membershipAccess=collaboration).',
} as const;

/** What addUsers says of a name it does not add (`notAddedReasons`), by the shared rule's reason. */
function notAddedReason(reason: AddUsersRefusal, externalLimit: number): string {
  switch (reason) {
    case 'no-account':
      return 'The user does not exist.';
    case 'disabled':
      return 'The account is disabled.';
    case 'access-org':
    case 'access-collaboration':
      return ACCESS_REFUSALS[reason];
    case 'cannot-join':
      return `The user lacks the privilege to join groups (${joinPrivilege(false)}).`;
    case 'cannot-join-external':
      return `The user lacks the privilege to join groups of other organizations (${joinPrivilege(true)}).`;
    case 'too-many-groups':
      return `The user already belongs to ${LIMITS.groupsPerUser} groups, the most a member may.`;
    case 'external-not-allowed':
      return `The user is in another organization; adding external members requires the privilege ${ADD_EXTERNAL_MEMBERS}.`;
    case 'external-limit':
      return `The group has reached its limit of ${externalLimit} members from other organizations.`;
  }
}

/**
 * Why the group's `membershipAccess` keeps out a member of organization `orgId`, or null when it
 * lets them in. `partners` is asked only when needed (a group of `collaboration` access, an outsider).
 */
async function membershipAccessRefusal(
  access: MembershipAccess,
  groupOrgId: string,
  orgId: string,
  partners: () => Promise<Set<string>>,
): Promise<string | null> {
  const external = orgId !== groupOrgId;
  const refusal = accessRefusal(access, external, external && access === 'collaboration' ? (await partners()).has(orgId) : undefined);
  return refusal && ACCESS_REFUSALS[refusal];
}

function privilegesOf(c: Pick<CandidateRow, 'role' | 'role_id' | 'role_privileges'>): Set<Privilege> {
  return rolePrivileges(c.role, c.role_id ? (c.role_privileges ?? []) : null);
}

/** A change to a group's membership, recorded against the group: its organization, and its owner and title for history. */
function recordMembershipChange(
  q: Queryable,
  caller: Caller,
  group: GroupRow,
  when: number,
  change: { operation: 'addUsers' | 'removeUsers' | 'updateUsers'; properties: Record<string, unknown>; data: HistoryData; op?: HistoryOperation },
): Promise<void> {
  return recordEvent(q, {
    orgId: group.org_id,
    source: 'group',
    operation: change.operation,
    subjectId: group.id,
    actor: actorOf(caller),
    properties: change.properties,
    when,
    history: { op: change.op, owner: group.owner_username, title: group.title, data: change.data },
  });
}

/**
 * addUsers: `users` join as members, `admins` as managers, no invitation. Not an error for a
 * user who cannot be added: they are listed in `notAdded`, with the reason beside it. `group` is
 * authorized (owner, manager or portal:admin:assignToGroups) before this runs, so an outsider learns
 * nothing from the size check; who may be added depends on each user named and is decided here.
 */
export async function addUsers(ctx: PortalContext, caller: Caller, group: GroupRow, users: string[], admins: string[]) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    if (users.length + admins.length > LIMITS.usersPerAddToGroupRequest) {
      throw new ApiError(
        400,
        'Exceeded maximum number of users allowed per call.',
        [`At most ${LIMITS.usersPerAddToGroupRequest} users (users and admins together) per request; ${users.length + admins.length} were sent.`],
        MESSAGE_CODES.tooManyUsers,
      );
    }
    await lockGroup(q, group.id);
    const wanted = new Map<string, { name: string; type: 'admin' | 'member' }>();
    for (const name of users) wanted.set(name.toLowerCase(), { name, type: 'member' });
    for (const name of admins) wanted.set(name.toLowerCase(), { name, type: 'admin' });
    // Counted after the lock: a concurrent addition to another group has committed or waits.
    await lockMembersByName(q, [...wanted.keys()]);
    const found = new Map((await findCandidates(q, group.id, [...wanted.keys()])).map((c) => [c.username.toLowerCase(), c]));
    const limit = await externalMemberLimit(q, group.org_id);
    let partners: Promise<Set<string>> | undefined;
    const partnersOnce = () => (partners ??= partneredOrgs(q, group.org_id));
    let externalCount = await countExternalMembers(q, group.id, group.org_id);
    const reasons: NotAddedReason[] = [];
    const toInsert: { userId: string; type: MemberType }[] = [];
    const toPromote: string[] = [];
    const added: string[] = [];
    const promoted: string[] = [];
    for (const [key, { name, type }] of wanted) {
      const c = found.get(key);
      const external = !!c && c.org_id !== group.org_id;
      // Partnered organizations are looked up only when a collaboration group meets an outsider.
      const partnered = c && external && !c.member_type && group.membership_access === 'collaboration' ? (await partnersOnce()).has(c.org_id) : undefined;
      const verdict = addUsersVerdict({
        asManager: type === 'admin',
        group: { membershipAccess: group.membership_access, externalRoom: externalCount < limit },
        caller,
        candidate: c
          ? {
              exists: true,
              membership: c.member_type,
              disabled: c.disabled,
              external,
              partnered,
              privileges: privilegesOf(c),
              atGroupLimit: c.group_count >= LIMITS.groupsPerUser,
            }
          : { exists: false },
      });
      if (verdict.kind === 'refused') reasons.push({ username: name, reason: notAddedReason(verdict.reason, limit) });
      else if (verdict.kind === 'promote' && c) {
        // Already a member: not an error; a member named among `admins` becomes a manager.
        toPromote.push(c.id);
        promoted.push(c.username);
      } else if (verdict.kind === 'add' && c) {
        if (external) externalCount++;
        toInsert.push({ userId: c.id, type });
        added.push(c.username);
      }
    }
    await insertMembers(q, group.id, toInsert, now);
    await setMemberType(q, group.id, toPromote, 'admin');
    if (added.length) {
      await recordMembershipChange(q, caller, group, now, {
        operation: 'addUsers',
        properties: { addedUserNames: added },
        data: { usernames: added, admins: added.filter((u) => wanted.get(u.toLowerCase())?.type === 'admin'), ...(promoted.length ? { promoted } : {}) },
      });
    } else if (promoted.length) {
      // Only existing members made managers: the change updateUsers would have made, recorded as one.
      await recordMembershipChange(q, caller, group, now, {
        operation: 'updateUsers',
        properties: { updatedUserNames: promoted },
        data: {
          usernames: promoted,
          before: { memberTypes: Object.fromEntries(promoted.map((u) => [u, 'member'])) },
          after: { memberTypes: Object.fromEntries(promoted.map((u) => [u, 'admin'])) },
        },
      });
    }
    return { notAdded: reasons.map((r) => r.username), notAddedReasons: reasons };
  });
}

/**
 * `group` is authorized (owner, manager or whom removeGroupUsers' declaration admits); which members
 * a manager may remove depends on each named and is decided here, with what the declaration
 * reaches (`reach`): a manager removes another manager only as an administrator.
 */
export async function removeUsers(ctx: PortalContext, caller: Caller, reach: Reach, group: GroupRow, users: string[]) {
  if (users.length > LIMITS.usersPerAddToGroupRequest) {
    throw new ApiError(
      400,
      'Exceeded maximum number of users allowed per call.',
      [`At most ${LIMITS.usersPerAddToGroupRequest} users per request.`],
      MESSAGE_CODES.tooManyUsers,
    );
  }
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const found = new Map((await findCandidates(q, group.id, users)).map((c) => [c.username.toLowerCase(), c]));
    const notRemoved: string[] = [];
    const removed: CandidateRow[] = [];
    for (const name of users) {
      const c = found.get(name.toLowerCase());
      // The owner stays; managers may be removed only by the owner or an administrator (a rule on
      // who is named, so it stays here rather than in the group target).
      if (!c || !c.member_type || c.member_type === 'owner') notRemoved.push(name);
      else if (c.member_type === 'admin' && group.my_member_type === 'admin' && c.id !== caller.userId && !reach.others(group.org_id)) notRemoved.push(name);
      else removed.push(c);
    }
    await deleteMembers(
      q,
      group.id,
      removed.map((c) => c.id),
    );
    if (removed.length) {
      await recordMembershipChange(q, caller, group, now, {
        operation: 'removeUsers',
        properties: { removedUserNames: removed.map((c) => c.username) },
        data: { usernames: removed.map((c) => c.username), before: { memberTypes: Object.fromEntries(removed.map((c) => [c.username, c.member_type])) } },
      });
    }
    return { notRemoved };
  });
}

/** updateUsers: `admins` become managers, `users` become plain members. `group` is authorized (owner or portal:admin:updateGroups). */
export async function updateUsers(ctx: PortalContext, caller: Caller, group: GroupRow, users: string[], admins: string[]) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const found = new Map((await findCandidates(q, group.id, [...users, ...admins])).map((c) => [c.username.toLowerCase(), c]));
    const results: { username: string; success: boolean }[] = [];
    const changes: Record<'admin' | 'member', string[]> = { admin: [], member: [] };
    const updated: string[] = [];
    const previous: Record<string, string> = {};
    const next: Record<string, string> = {};
    for (const [names, type] of [
      [admins, 'admin'],
      [users, 'member'],
    ] as const) {
      for (const name of names) {
        const c = found.get(name.toLowerCase());
        const ok = !!c && !!c.member_type && c.member_type !== 'owner';
        results.push({ username: name, success: ok });
        if (ok) {
          changes[type].push(c.id);
          updated.push(c.username);
          previous[c.username] = c.member_type!;
          next[c.username] = type;
        }
      }
    }
    await setMemberType(q, group.id, changes.admin, 'admin');
    await setMemberType(q, group.id, changes.member, 'member');
    if (updated.length) {
      await recordMembershipChange(q, caller, group, now, {
        operation: 'updateUsers',
        properties: { updatedUserNames: updated },
        data: { usernames: updated, before: { memberTypes: previous }, after: { memberTypes: next } },
      });
    }
    return { results };
  });
}

/**
 * `group` is one the caller sees (MEMBERSHIP_TARGET). Whether they may join depends on whose
 * organization the group is in and its membership access, so the privilege asked is decided here.
 */
export async function joinGroup(ctx: PortalContext, caller: Caller, group: GroupRow) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    if (group.my_member_type) return { success: true as const, groupId: group.id };
    const external = caller.orgId !== group.org_id;
    assertMayJoinGroups(caller, external);
    const accessRefusal = await membershipAccessRefusal(group.membership_access, group.org_id, caller.orgId, () => partneredOrgs(q, group.org_id));
    if (accessRefusal) throw new ApiError(400, 'You cannot join this group.', [accessRefusal]);
    // Joining follows the group's own sharing: a private group (or one the caller sees only through
    // portal:admin:viewGroups) is joined by invitation, never by an administrator's view of it.
    const openToCaller = group.access === 'public' || (group.access === 'org' && caller.orgId === group.org_id);
    if (group.is_invitation_only || !openToCaller)
      throw new ApiError(400, 'This group accepts members by invitation only.', ['Ask a group manager to add you.']);
    await lockGroup(q, group.id);
    await lockMember(q, caller.userId);
    if ((await countGroupsOfUser(q, caller.userId)) >= LIMITS.groupsPerUser) {
      throw new ApiError(400, `You already belong to ${LIMITS.groupsPerUser} groups, the most a member may.`, []);
    }
    if (external && (await countExternalMembers(q, group.id, group.org_id)) >= (await externalMemberLimit(q, group.org_id))) {
      throw new ApiError(400, 'The group has reached its limit of members from other organizations.', []);
    }
    await insertMembers(q, group.id, [{ userId: caller.userId, type: 'member' }], now);
    await recordMembershipChange(q, caller, group, now, {
      operation: 'addUsers',
      properties: { addedUserNames: [caller.username] },
      data: { usernames: [caller.username] },
      op: 'joinGroup',
    });
    return { success: true as const, groupId: group.id };
  });
}

/** `group` is one the caller sees (MEMBERSHIP_TARGET). */
export async function leaveGroup(ctx: PortalContext, caller: Caller, group: GroupRow) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    if (!group.my_member_type) throw new ApiError(400, 'You are not a member of this group.', []);
    if (group.my_member_type === 'owner') throw new ApiError(400, "The group's owner cannot leave it; transfer ownership or delete the group.", []);
    if (group.leaving_disallowed) throw new ApiError(400, 'Members cannot leave this group.', ['The group disallows leaving.']);
    await deleteMembers(q, group.id, [caller.userId]);
    await recordMembershipChange(q, caller, group, now, {
      operation: 'removeUsers',
      properties: { removedUserNames: [caller.username] },
      data: { usernames: [caller.username] },
      op: 'leaveGroup',
    });
    return { success: true as const, groupId: group.id };
  });
}

/**
 * Who may list a group's members: anyone who sees it, unless members are hidden (then managers, and
 * whom the listing's declaration reaches in the group's organization: `reach`).
 */
export function assertMayListMembers(caller: Caller | null, reach: Reach, group: GroupRow): void {
  if (!group.hidden_members) return;
  if (caller && (isManager(group) || reach.others(group.org_id))) return;
  throw forbidden("This group's members are hidden.");
}

// ------------------------------------------------------------------ ownership

/**
 * Reassign Group (`community/groups/<id>/reassign`): `group` is authorized (an administrator of its
 * organization with portal:admin:reassignGroups). The new owner must be an enabled member of the
 * group's organization who may own groups (and, for a shared-update group, own one of those), and
 * must not already own a group of the same title. A target outside the group joins it as its owner;
 * the previous owner stays in the group as a member, so a transfer back (the undo) finds them there.
 */
export async function reassignGroup(ctx: PortalContext, caller: Caller, group: GroupRow, targetUsername: string) {
  const now = ctx.clock.now();
  return ctx.db
    .tx(async (q) => {
      await lockGroup(q, group.id);
      const [target] = await findCandidates(q, group.id, [targetUsername]);
      if (!target) throw badParam('targetUsername', `names no member ('${targetUsername}')`, `User '${targetUsername}' does not exist or is inaccessible.`);
      if (target.org_id !== group.org_id) throw badParam('targetUsername', `'${target.username}' is not a member of the group's organization`);
      if (target.id === group.owner_id) throw badParam('targetUsername', `must differ from the current owner ('${group.owner_username}')`);
      if (target.disabled) throw badParam('targetUsername', `'${target.username}' is disabled`);
      const needs: Privilege[] = ['portal:user:createGroup'];
      if (group.capabilities.includes('updateitemcontrol')) needs.push('portal:admin:createUpdateCapableGroup');
      const [lacking] = missingPrivileges({ privileges: privilegesOf(target) }, needs);
      if (lacking) throw badParam('targetUsername', `'${target.username}' cannot own this group: their role lacks ${lacking}`);
      // Asked of the target (not assertTitleFree, whose refusal speaks to the caller about their own groups).
      if ((await groupIdsOwnedWithTitle(q, target.id, group.title)).length)
        throw badParam('targetUsername', `'${target.username}' already owns a group titled '${group.title}'`);
      if (!target.member_type) {
        await lockMember(q, target.id);
        if (target.group_count >= LIMITS.groupsPerUser)
          throw badParam('targetUsername', `'${target.username}' already belongs to ${LIMITS.groupsPerUser} groups, the most a member may`);
      }
      await setGroupOwner(q, group.id, group.owner_id, target.id, now);
      await recordEvent(q, {
        orgId: group.org_id,
        source: 'group',
        operation: 'reassign',
        subjectId: group.id,
        actor: actorOf(caller),
        properties: { reassignedTo: [target.username] },
        when: now,
        history: {
          owner: target.username,
          title: group.title,
          data: { before: { owner: group.owner_username }, after: { owner: target.username }, ...(target.member_type ? {} : { joined: target.username }) },
        },
      });
      return { success: true as const, groupId: group.id };
    })
    .catch(uniqueTitle(group.title));
}
