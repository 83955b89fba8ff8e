import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createUserParams,
  listUsersParams,
  MEMBER_FILTER_PARAMS,
  MEMBER_OPERATIONS,
  memberFilterParams,
  searchUsersParams,
  updateUserLicenseTypeParams,
  removeUsersParams,
  updateUserParams,
  updateUserRoleParams,
} from '../../../shared/contract/users.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { forbidden } from '../../http/errors.ts';
import { JsonText, operation, PORTAL_ADMIN, REST } from '../../http/operation.ts';
import { canViewMembers, createUser, listMembers, type MemberFilter, ROLE_CHANGE_ORG, seesPrivateFields, toPortalUser, updateUserRole } from './service.ts';
import { parseUserQuery } from './query.ts';
import { MEMBER_TARGET, setMemberDisabled } from './status.ts';
import { LICENSES_ORG, updateUserLicenseType } from './licenseType.ts';
import { deleteMember, REMOVE_USERS_ORG, removeMembers } from './delete.ts';
import { MEMBER_SELF_TARGET, updateMember } from './update.ts';
import type { Caller } from '../../http/auth.ts';
import { seesMembersPrivateFields } from '../../http/policies.ts';
import type { Db } from '../../store/db.ts';
import type { PortalContext } from '../../context.ts';
import { groupsOfUser, toGroupRecord } from '../groups/service.ts';
import { memberTags, otherMemberRecord, TAGGED_MEMBER, visibleMember } from './community.ts';
import { cappedEnvelope, cappedWindow, memberSearchCap } from './searchCap.ts';

/**
 * community/self's answer, serialised once per caller and kept while the embedded database's write
 * generation (Db.writeGeneration) has not moved: no write of any kind, so neither the member, their
 * role nor their groups changed. Building and serialising the ~4.5 KB answer was most of the call's
 * cost (docs/performance.md). PostgreSQL has no generation (other processes write): nothing is kept.
 * Keyed by the caller object, which lives as long as its cached token row (http/auth.ts): a weak
 * map lets each answer go with it, with no count to cap.
 */
const selfAnswers = new WeakMap<Caller, { generation: number; answer: JsonText }>();

function selfAnswer(db: Db, caller: Caller): JsonText | Promise<JsonText> {
  const generation = db.writeGeneration?.();
  const kept = selfAnswers.get(caller);
  // The kept answer is given as it is, not as a promise: operation() then answers without waiting.
  if (generation !== undefined && kept?.generation === generation) return kept.answer;
  return groupsOfUser(db, caller.userId).then((groups) => {
    const answer = new JsonText(JSON.stringify({ ...toPortalUser(caller.user, true), groups: groups.map((g) => toGroupRecord(g, caller)) }));
    // Kept only if nothing was written while it was read.
    if (generation !== undefined && db.writeGeneration?.() === generation) selfAnswers.set(caller, { generation, answer });
    return answer;
  });
}

function orgOf(caller: Caller, orgId: string): string {
  const id = orgId === 'self' ? caller.orgId : orgId;
  if (!canViewMembers(caller, id)) throw forbidden('Requires the privilege portal:user:viewOrgUsers in this organization.');
  return id;
}

/**
 * Searches run in the caller's organization, where seesPrivateFields shows the email address to
 * the member themself and to holders of portal:admin:viewUsers: for anyone else only their own
 * address is searchable, so a search cannot confirm an address it would not show.
 */
function emailOwnOnly(caller: Caller): string | undefined {
  return seesMembersPrivateFields(caller) ? undefined : caller.userId;
}

type MemberPaging = { start: number; num: number; sortField: string; sortOrder: 'asc' | 'desc' };

/** One page of members as the caller may see them, paged only as deep as this portal pages a search (searchCap.ts). */
async function memberPage(portal: PortalContext, caller: Caller, filter: MemberFilter, params: MemberPaging) {
  const cap = memberSearchCap(portal.config);
  const { total, rows } = await listMembers(portal.db, filter, { field: params.sortField, order: params.sortOrder }, cappedWindow(cap, params));
  return { envelope: cappedEnvelope(cap, total, params, rows.length), users: rows.map((r) => toPortalUser(r, seesPrivateFields(caller, r))) };
}

/** One page of a user search (community/users, portals/self/users/search), in the search envelope. */
async function userSearchPage(portal: PortalContext, caller: Caller, filter: MemberFilter, params: z.output<typeof searchUsersParams>) {
  const { envelope, users } = await memberPage(portal, caller, filter, params);
  return { query: params.q, ...envelope, results: users };
}

/** The local member filters (status, user types, last sign-in and creation dates) as a list filter. */
function memberFilters(params: z.output<typeof memberFilterParams>): Partial<MemberFilter> {
  return {
    disabled: params.disabled,
    licenseTypes: params.userLicenseType,
    lastLogin: { before: params.lastLoginBefore, after: params.lastLoginAfter },
    created: { before: params.createdBefore, after: params.createdAfter },
  };
}

export function userRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/community/self`,
    authority: MEMBER_OPERATIONS.self,
    params: z.object({}),
    handler: ({ caller, portal }) => selfAnswer(portal.db, caller),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/community/users/:username`,
    authority: MEMBER_OPERATIONS.user,
    params: z.object({}),
    access: 'public',
    handler: async ({ caller, path, portal }) => {
      const row = await visibleMember(portal.db, caller, path.username);
      // Oneself: the same answer as community/self, groups included (PortalUser.fetchGroups reads them here).
      return caller && caller.userId === row.id ? selfAnswer(portal.db, caller) : otherMemberRecord(portal.db, caller as Caller, row);
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/community/users/:username/tags`,
    authority: MEMBER_OPERATIONS.userTags,
    target: TAGGED_MEMBER,
    params: z.object({}),
    handler: ({ portal, target }) => memberTags(portal.db, target),
  });

  // User Search: signed-in callers only (as documented); members are visible within their organization only.
  operation(app, {
    method: 'read',
    path: `${REST}/community/users`,
    localParams: MEMBER_FILTER_PARAMS,
    authority: MEMBER_OPERATIONS.searchCommunityUsers,
    params: searchUsersParams,
    handler: async ({ caller, params, portal }) => {
      const parsed = parseUserQuery(params.q, emailOwnOnly(caller));
      const condition = parsed.condition!;
      // Without the right to view members, the caller finds only themselves.
      const filter: MemberFilter = canViewMembers(caller, caller.orgId)
        ? { orgId: caller.orgId, condition, ...memberFilters(params) }
        : { orgId: caller.orgId, condition: (p) => `(${condition(p)}) AND u.id = ${p(caller.userId)}`, ...memberFilters(params) };
      return userSearchPage(portal, caller, filter, params);
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/users`,
    localParams: MEMBER_FILTER_PARAMS,
    authority: MEMBER_OPERATIONS.orgUsers,
    params: listUsersParams,
    handler: async ({ caller, path, params, portal }) => {
      const orgId = orgOf(caller, path.orgId);
      const names: MemberFilter['names'] = [];
      if (params.username) names.push({ column: 'username', value: params.username });
      if (params.fullname) names.push({ column: 'full_name', value: params.fullname });
      if (params.firstname) names.push({ column: 'first_name', value: params.firstname });
      if (params.lastname) names.push({ column: 'last_name', value: params.lastname });
      const roles = [
        ...(params.role
          ? params.role
              .split(',')
              .map((r) => r.trim())
              .filter(Boolean)
          : []),
        ...(params.roleIds ?? []),
      ];
      const filter: MemberFilter = {
        orgId,
        roles,
        names,
        intersect: params.applyFilterIntersection ?? false,
        terms: params.q ? params.q.split(/\s+/).filter(Boolean) : [],
        emailOwnOnly: emailOwnOnly(caller),
        ...memberFilters(params),
      };
      if (params.provider && params.provider !== 'arcgis') return { ...pageEnvelope(0, params, 0), users: [] };
      const { envelope, users } = await memberPage(portal, caller, filter, params);
      return { ...envelope, users };
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/self/users/search`,
    localParams: MEMBER_FILTER_PARAMS,
    authority: MEMBER_OPERATIONS.searchOrgUsers,
    params: searchUsersParams,
    handler: async ({ caller, params, portal }) => {
      const orgId = orgOf(caller, 'self');
      const filter = { orgId, ...parseUserQuery(params.q, emailOwnOnly(caller)), ...memberFilters(params) };
      return userSearchPage(portal, caller, filter, params);
    },
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/updateUserRole`,
    authority: MEMBER_OPERATIONS.updateUserRole,
    target: ROLE_CHANGE_ORG,
    params: updateUserRoleParams,
    handler: ({ caller, params, portal, target }) => updateUserRole(portal, caller, target.orgId, params.username, params.role),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/updateUserLicenseType`,
    authority: MEMBER_OPERATIONS.updateUserLicenseType,
    target: LICENSES_ORG,
    params: updateUserLicenseTypeParams,
    handler: ({ caller, params, portal }) => updateUserLicenseType(portal, caller, params.users, params.userLicenseType),
  });

  for (const [verb, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    operation(app, {
      method: 'write',
      path: `${REST}/community/users/:username/${verb}`,
      authority: MEMBER_OPERATIONS[disabled ? 'disableUser' : 'enableUser'],
      target: MEMBER_TARGET,
      params: z.object({}),
      handler: ({ caller, portal, target }) => setMemberDisabled(portal, caller, target, disabled),
    });
  }

  operation(app, {
    method: 'write',
    path: `${REST}/community/users/:username/update`,
    authority: MEMBER_OPERATIONS.updateUser,
    target: MEMBER_SELF_TARGET,
    params: updateUserParams,
    handler: ({ caller, params, portal, target }) => updateMember(portal, caller, target, params),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/community/users/:username/delete`,
    authority: MEMBER_OPERATIONS.deleteUser,
    target: MEMBER_TARGET,
    params: z.object({}),
    handler: ({ caller, portal, target }) => deleteMember(portal, caller, target),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/removeUsers`,
    authority: MEMBER_OPERATIONS.removeUsers,
    target: REMOVE_USERS_ORG,
    params: removeUsersParams,
    extras: ['notRemovedReasons'],
    handler: ({ caller, params, portal }) => removeMembers(portal, caller, params.users),
  });

  operation(app, {
    method: 'write',
    path: `${PORTAL_ADMIN}/security/users/createUser`,
    authority: MEMBER_OPERATIONS.createUser,
    params: createUserParams,
    handler: async ({ caller, params, portal }) => {
      const user = await createUser(portal, caller, caller.orgId, params);
      return { status: 'success', username: user.username };
    },
  });
}
