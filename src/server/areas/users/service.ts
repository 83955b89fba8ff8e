/** Rules for members: what a record shows to whom, creating accounts, changing roles. */
import type { PortalUser } from '../../../shared/contract/users.ts';
import { BUILT_IN_ROLES, rolePrivileges } from '../../../shared/privileges.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller, type CallerLookups, callerFromUser, resolveCaller as resolveCallerWith, type SentFrom } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import { memberOfCallersOrg } from './memberToActOn.ts';
import { recordEvent } from '../../store/events.ts';
import { hexId } from '../../store/ids.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { hashPassword } from '../../core/passwords.ts';
import { isCommonPassword } from '../../core/common-passwords.ts';
import { assertMayGrantRole, assertNotOwnRole, isAdministratorRole, resolveRole } from '../roles/service.ts';
import { readDefaults } from '../userDefaultSettings/service.ts';
import { userTypeRefusal } from '../../../shared/userTypes.ts';
import { isUserIdShaped } from '../../http/userPath.ts';
import {
  callerRowOfToken,
  countDefaultAdmins,
  findUserById,
  insertUser,
  joinGroupsOfOrg,
  orgMemberUsernameById,
  orgMemberUsernameByName,
  setUserRole,
  usernameTaken,
  type UserRow,
} from './repo.ts';
import { mayCreateMembers, mayJoinGroups, mayViewOrgMembers, seesMembersPrivateFields } from '../../http/policies.ts';
import { orgTarget } from '../../http/target.ts';

/**
 * What other areas use of members' rows, exposed here so they depend on this service and not on
 * the SQL module: lookups by name, the member count, and the sign-in bookkeeping of auth and oauth.
 */
export { countMembers, findUser, findUserForSignIn, listMembers, recordFailedSignIn, recordSignIn, type MemberFilter, type UserRow } from './repo.ts';
// The member lifecycle's runs move members and keep the last administrator (areas/memberLifecycle).
export { countDefaultAdmins, setUserLicenseType, setUserRole } from './repo.ts';
export { pathMemberTarget } from './pathMember.ts';
// An administrator's actions on a member's account, which the member lifecycle's runs and the
// member jobs apply too: disabling, deleting, the user type, and the rules those actions share.
export { memberOfCallersOrg, memberToActOn } from './memberToActOn.ts';
export { MEMBER_TARGET, setMemberDisabled, writeMemberDisabled } from './status.ts';
export { deleteMember } from './delete.ts';
export { LICENSES_ORG, updateUserLicenseType } from './licenseType.ts';

const VIEWER_ROLE_ID = BUILT_IN_ROLES[0].id;

/** What request handling reads of members to know who calls and whom a path names (the app hands it to http). */
export const callerLookups: CallerLookups = { callerRowOfToken, orgMemberUsernameById, orgMemberUsernameByName };

/** The caller a token names, as every operation resolves it (for routes outside operation(), e.g. the proxy). */
export const resolveCaller = (db: Db, token: string, now: number, sentFrom: SentFrom): Promise<Caller> =>
  resolveCallerWith(callerLookups, db, token, now, sentFrom);

/**
 * An enabled member as a caller, with their role as it is now: for work done on their behalf later
 * (a scheduled report runs with what its owner may read when it runs).
 */
export async function memberAsCaller(q: Queryable, userId: string): Promise<Caller | undefined> {
  const row = await findUserById(q, userId);
  return row && !row.disabled ? callerFromUser(row) : undefined;
}

export function userPrivileges(row: Pick<UserRow, 'role' | 'role_id' | 'role_privileges'>): string[] {
  // Worked out once per base role, and once per custom role's privilege list as read (on the
  // embedded database the same rows come back until the next write): every community/self needs it.
  // Callers must not mutate the list.
  const key = row.role_id ? row.role_privileges : row.role;
  const known = key ? (typeof key === 'string' ? BASE_LISTS.get(key) : CUSTOM_LISTS.get(key)) : undefined;
  if (known) return known;
  const set = rolePrivileges(row.role, row.role_id ? (row.role_privileges ?? []) : null);
  const list = [...set].sort();
  if (typeof key === 'string') BASE_LISTS.set(key, list);
  else if (key) CUSTOM_LISTS.set(key, list);
  return list;
}
const BASE_LISTS = new Map<string, string[]>();
const CUSTOM_LISTS = new WeakMap<object, string[]>();

/**
 * The user record. `full` (the member themself, or an administrator who may view members)
 * includes the email address; other members of the organization see the rest.
 */
export function toPortalUser(row: UserRow, full: boolean): PortalUser {
  return {
    username: row.username,
    id: row.id,
    fullName: row.full_name,
    firstName: row.first_name,
    lastName: row.last_name,
    description: row.description,
    ...(full ? { email: row.email } : {}),
    userType: row.user_type,
    idpUsername: null,
    favGroupId: null,
    lastLogin: row.last_login,
    mfaEnabled: false,
    storageUsage: 0,
    storageQuota: 2199023255552,
    orgId: row.org_id,
    role: row.role,
    ...(row.role_id ? { roleId: row.role_id } : {}),
    privileges: userPrivileges(row),
    level: row.user_license_type_id === 'viewerUT' ? '1' : '2',
    userLicenseTypeId: row.user_license_type_id,
    disabled: row.disabled,
    tags: row.tags ?? [],
    culture: row.culture ?? 'en',
    region: row.region ?? null,
    units: row.units ?? 'metric',
    preferredView: row.preferred_view ?? null,
    thumbnail: null,
    access: row.access ?? 'org',
    created: row.created,
    modified: row.modified,
    provider: 'arcgis',
  };
}

/** Members of an organization see each other with this privilege; administrators with theirs. */
export function canViewMembers(caller: Caller, orgId: string): boolean {
  return caller.orgId === orgId && mayViewOrgMembers(caller);
}

export function seesPrivateFields(caller: Caller, row: UserRow): boolean {
  return caller.userId === row.id || (caller.orgId === row.org_id && seesMembersPrivateFields(caller));
}

/** The organization whose member's role changes (`self` the caller's own), decided with MEMBER_OPERATIONS.updateUserRole by operation(). */
export const ROLE_CHANGE_ORG = orgTarget({ otherOrg: 'You can change roles only in your own organization.' }, { self: true });

/** Changes a member's role; the caller has been authorized on `orgId` (ROLE_CHANGE_ORG). */
export async function updateUserRole(ctx: PortalContext, caller: Caller, orgId: string, username: string, roleParam: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const target = await memberOfCallersOrg(q, caller, username);
    assertNotOwnRole(caller, target.id);
    const to = await resolveRole(q, orgId, roleParam);
    const from = { role: target.role, roleId: target.role_id };
    // Changing rules (spec §4.6): an administrator is unmade only by a default administrator;
    // the role given must be one the caller may give (docs/security.md, "Role assignment").
    if (isAdministratorRole(from) && !caller.isDefaultAdmin) throw forbidden("Only default administrators can change an administrator's role.");
    assertMayGrantRole(caller, to);
    // The member's user type caps the roles they can hold (shared/userTypes.ts).
    const typeRefusal = userTypeRefusal(target.user_license_type_id, to);
    if (typeRefusal) throw badParam('role', `is not compatible: ${typeRefusal}`, 'Unable to update the user role.');
    // A disabled administrator is not counted, so demoting one never leaves the organization without one.
    if (isAdministratorRole(from) && !isAdministratorRole(to) && !target.disabled && (await countDefaultAdmins(q, orgId)) <= 1) {
      throw badParam('role', `cannot be changed: ${target.username} is the organization's last administrator`, 'Unable to update the user role.');
    }
    if (from.role === to.role && from.roleId === to.roleId) return { success: true, username: target.username };
    await setUserRole(q, target.id, to.role, to.roleId, now);
    await recordEvent(q, {
      orgId,
      source: 'user',
      operation: 'updateUserRole',
      subjectId: target.username,
      actor: actorOf(caller),
      properties: { userRoleUpdatedTo: [to.roleId ?? to.role] },
      when: now,
      history: {
        title: target.full_name || target.username,
        data: { before: { role: from.role, roleId: from.roleId }, after: { role: to.role, roleId: to.roleId } },
      },
    });
    return { success: true, username: target.username };
  });
}

export interface CreateUserInput {
  username: string;
  password: string;
  firstname?: string;
  lastname?: string;
  fullname?: string;
  email: string;
  role?: string;
  userLicenseTypeId?: string;
  description?: string;
  /** Internal callers (first-start seeding) may hash ahead of time; the wire never sets this. */
  passwordHash?: string;
}

/** Creates an account in `orgId`. `caller` null: the service itself (first start, demo data). */
export async function createUser(ctx: PortalContext, caller: Caller | null, orgId: string, input: CreateUserInput) {
  if (caller) {
    if (caller.orgId !== orgId) throw forbidden();
    if (!caller.isDefaultAdmin && !mayCreateMembers(caller)) {
      throw forbidden('Only administrators can create members (requires portal:admin:inviteUsers).');
    }
  }
  // Paths take a user id where a username goes (http/userPath.ts): a username shaped like an id could name someone else.
  if (isUserIdShaped(input.username))
    throw badParam('username', 'has the form of a user id (32 hexadecimal characters); choose another username', 'Unable to create user.');
  if (isCommonPassword(input.password)) throw badParam('password', 'is too common; choose a less guessable password', 'Unable to create user.');
  // Hash before the transaction: it takes a few hundred milliseconds by design.
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password, ctx.config.passwordLogN));
  const now = ctx.clock.now();
  const taken = () => badParam('username', `'${input.username}' is already taken`, 'Unable to create user.');
  return ctx.db
    .tx(async (q) => {
      if (await usernameTaken(q, input.username)) throw taken();
      const defaults = await readDefaults(q, orgId);
      const resolved = await resolveRole(q, orgId, input.role ?? defaults.role ?? 'org_user');
      // The caller chooses the new account's password, so giving it a role is giving themselves one.
      if (caller) assertMayGrantRole(caller, resolved);
      const userLicenseTypeId = input.userLicenseTypeId ?? defaults.userLicenseType ?? (resolved.roleId === VIEWER_ROLE_ID ? 'viewerUT' : 'creatorUT');
      // The user type caps the roles its member can hold (shared/userTypes.ts), as updateUserRole and
      // updateUserLicenseType already refuse: no Viewer-type administrator, whichever side was given.
      const typeRefusal = userTypeRefusal(userLicenseTypeId, resolved);
      if (typeRefusal) {
        const param = input.userLicenseTypeId ? 'userLicenseTypeId' : 'role';
        const source = input.userLicenseTypeId ? '' : ' (the new-member default user type)';
        throw badParam(param, `is not compatible${source}: ${typeRefusal}`, 'Unable to create user.');
      }
      const firstName = input.firstname ?? '';
      const lastName = input.lastname ?? '';
      const user = {
        id: hexId(),
        orgId,
        username: input.username,
        passwordHash,
        firstName,
        lastName,
        fullName: input.fullname || `${firstName} ${lastName}`.trim() || input.username,
        email: input.email,
        description: input.description ?? null,
        role: resolved.role,
        roleId: resolved.roleId,
        userLicenseTypeId,
        userType: defaults.userType ?? 'arcgisonly',
        now,
      };
      await insertUser(q, user);
      // Default groups the new member's role may join (a group deleted since is skipped).
      if (defaults.groups.length && mayJoinGroups(resolved, false)) {
        const joined = await joinGroupsOfOrg(q, defaults.groups, user.id, now, orgId);
        for (const { group_id } of joined) {
          await recordEvent(q, {
            orgId,
            source: 'group',
            operation: 'addUsers',
            subjectId: group_id,
            actor: caller ? actorOf(caller) : null,
            properties: { addedUserNames: [user.username] },
            when: now,
            history: { data: { usernames: [user.username], reason: 'new-member defaults' } },
          });
        }
      }
      await recordEvent(q, {
        orgId,
        source: 'user',
        operation: 'add',
        subjectId: user.username,
        actor: caller ? actorOf(caller) : null,
        properties: { role: [resolved.roleId ?? resolved.role] },
        when: now,
        history: {
          title: user.fullName,
          data: {
            after: { role: resolved.role, roleId: resolved.roleId, fullName: user.fullName, email: user.email, userLicenseTypeId: user.userLicenseTypeId },
          },
        },
      });
      return user;
    })
    .catch((err: unknown) => {
      // The same new name asked for twice at once: the unique index refuses the second insert.
      const e = err as { code?: string; constraint?: string };
      if (e.code === '23505' && (e.constraint ?? 'users_username') === 'users_username') throw taken();
      throw err;
    });
}
