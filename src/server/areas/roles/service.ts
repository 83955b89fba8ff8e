/**
 * Custom roles. Only default administrators manage them (spec §5); the built-in Viewer and Data
 * Editor roles can be neither changed nor deleted.
 */
import type { Role } from '../../../shared/contract/roles.ts';
import { BUILT_IN_ROLE_IDS, PRIVILEGE_IDS, baseRoleForPrivileges, unmetPrerequisites, withImplied } from '../../../shared/privileges.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { orgTarget } from '../../http/target.ts';
import { ApiError, badParam, notFound } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { alnumId } from '../../store/ids.ts';
import {
  countRoleHolders,
  deleteRoleRecord,
  findRole,
  insertCustomRole,
  isNewMemberDefaultRole,
  roleIdsNamed,
  setBaseRoleOfHolders,
  setRoleNameAndDescription,
  setRolePrivileges,
  type RoleRow,
} from './repo.ts';

/** What the operations' list and read answers take from the repository as it is. */
export { listRolesPage } from './repo.ts';

/** A new organization's built-in roles (the first start's seeding). */
export { insertBuiltInRoles } from './repo.ts';
// Granting a role (users, the member lifecycle, the new-member defaults): the role a name or id
// resolves to, and who may give it to whom.
export { assertMayGrantRole, assertNotOwnRole, isAdministratorRole, resolveRole, type ResolvedRole } from './grant.ts';

export function toRole(row: RoleRow, withPrivileges: boolean, memberCount?: number): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created: row.created,
    modified: row.modified,
    ...(withPrivileges ? { privileges: [...row.privileges].sort() } : {}),
    builtIn: row.built_in,
    ...(memberCount !== undefined ? { memberCount } : {}),
  };
}

/**
 * The organization in the path (`self` is the caller's own) whose roles an operation manages or
 * reads; operation() decides with its entry of ROLE_OPERATIONS (shared/contract/roles.ts: default
 * administrators manage, members read) before any handler runs, so the
 * functions below take their `orgId` as authorized.
 */
export const ROLES_TO_MANAGE = orgTarget(
  {
    otherOrg: 'Roles can be managed only in your own organization.',
    notDefaultAdmin: 'Only default administrators (org_admin without a custom role) manage roles.',
  },
  { self: true },
);
export const ROLES_TO_READ = orgTarget({ otherOrg: 'Roles are visible only within their organization.' }, { self: true });

export async function roleOrError(q: Queryable, orgId: string, roleId: string): Promise<RoleRow> {
  const role = await findRole(q, orgId, roleId);
  if (!role) throw notFound(`Role '${roleId}'`);
  return role;
}

function assertChangeable(role: RoleRow): void {
  if (role.built_in || BUILT_IN_ROLE_IDS.has(role.id)) {
    throw new ApiError(400, `The built-in role '${role.name}' cannot be changed or deleted.`, [`'${role.name}' is a built-in role.`]);
  }
}

const nameTaken = (name: string) => badParam('name', `'${name}' is already the name of a role in this organization`, 'Unable to save the role.');

async function assertNameFree(q: Queryable, orgId: string, name: string, exceptId?: string): Promise<void> {
  const ids = await roleIdsNamed(q, orgId, name);
  if (ids.some((id) => id !== exceptId)) throw nameTaken(name);
}

/** The same name saved twice at once: the unique index refuses the second, reported like the check above. */
const uniqueName = (name: string) => (err: unknown) => {
  const e = err as { code?: string; constraint?: string };
  if (e.code === '23505' && (e.constraint ?? 'roles_org_name') === 'roles_org_name') throw nameTaken(name);
  throw err;
};

export async function createRole(ctx: PortalContext, caller: Caller, orgId: string, name: string, description: string) {
  const now = ctx.clock.now();
  return ctx.db
    .tx(async (q) => {
      await assertNameFree(q, orgId, name);
      const id = alnumId(16);
      await insertCustomRole(q, orgId, id, name, description, now);
      await recordEvent(q, {
        orgId,
        source: 'role',
        operation: 'add',
        subjectId: id,
        actor: actorOf(caller),
        properties: { name: [name] },
        when: now,
        history: { title: name, data: { after: { name, description } } },
      });
      return { success: true as const, id };
    })
    .catch(uniqueName(name));
}

export async function updateRole(ctx: PortalContext, caller: Caller, orgId: string, roleId: string, newName?: string, description?: string) {
  const now = ctx.clock.now();
  return ctx.db
    .tx(async (q) => {
      const role = await roleOrError(q, orgId, roleId);
      assertChangeable(role);
      const name = newName ?? role.name;
      await assertNameFree(q, orgId, name, roleId);
      await setRoleNameAndDescription(q, orgId, roleId, name, description ?? role.description, now);
      const nextDescription = description ?? role.description;
      const data = { before: { name: role.name, description: role.description }, after: { name, description: nextDescription } };
      await recordEvent(q, {
        orgId,
        source: 'role',
        operation: 'update',
        subjectId: roleId,
        actor: actorOf(caller),
        properties: { name: [name] },
        when: now,
        history: { title: name, data },
      });
      return { success: true as const };
    })
    .catch(uniqueName(newName ?? ''));
}

/**
 * Reads `{"privileges":[…]}`. A bare array, a malformed value or any unknown identifier is a 400
 * that names the bad entries; nothing is changed.
 */
export function parsePrivilegesParam(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badParam('privileges', 'must be JSON text of an object {"privileges": [ … ]}');
  }
  if (Array.isArray(parsed)) throw badParam('privileges', 'must be an object {"privileges": [ … ]}, not a bare array');
  const list = (parsed as { privileges?: unknown } | null)?.privileges;
  if (!parsed || typeof parsed !== 'object' || !Array.isArray(list)) throw badParam('privileges', 'must be an object with a "privileges" array');
  const notStrings = list.filter((p) => typeof p !== 'string');
  if (notStrings.length) throw badParam('privileges', `holds entries that are not strings: ${JSON.stringify(notStrings.slice(0, 10))}`);
  const unknown = (list as string[]).filter((p) => !PRIVILEGE_IDS.has(p));
  if (unknown.length) {
    throw new ApiError(
      400,
      'Invalid or missing input parameters.',
      unknown.map((p) => `'${p}' is not a known privilege.`),
      undefined,
      {
        privileges: `unknown privileges: ${unknown.join(', ')}`,
      },
    );
  }
  return [...new Set(list as string[])];
}

export async function setPrivileges(ctx: PortalContext, caller: Caller, orgId: string, roleId: string, privileges: string[]) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const role = await roleOrError(q, orgId, roleId);
    assertChangeable(role);
    const stored = [...withImplied(privileges)].sort();
    // A privilege without what it needs has no effect (facts §5): refused, named, rather than
    // stored looking granted. The console ticks prerequisites for the user (src/shared/privileges.ts).
    const unmet = unmetPrerequisites(stored);
    if (unmet.length) {
      const said = unmet.map((u) => `'${u.id}' needs ${u.missing.map((m) => `'${m}'`).join(', ')}, which is not granted`);
      throw new ApiError(
        400,
        'Unable to set the role privileges.',
        said.map((d) => `${d}.`),
        undefined,
        { privileges: `${said.join('; ')}` },
      );
    }
    // New members never start as administrators: the default role may not become one.
    if (baseRoleForPrivileges(stored) === 'org_admin') {
      if (await isNewMemberDefaultRole(q, orgId, roleId))
        throw badParam(
          'privileges',
          'cannot include administrative privileges while the role is the new-member default role',
          'Unable to set the role privileges.',
        );
    }
    await setRolePrivileges(q, orgId, roleId, stored, now);
    // Members holding the role are reported with the base role its privileges now amount to.
    await setBaseRoleOfHolders(q, orgId, roleId, baseRoleForPrivileges(stored), now);
    await recordEvent(q, {
      orgId,
      source: 'role',
      operation: 'update',
      subjectId: roleId,
      actor: actorOf(caller),
      properties: { privileges: stored },
      when: now,
      history: { op: 'setPrivileges', title: role.name, data: { before: { privileges: [...(role.privileges ?? [])].sort() }, after: { privileges: stored } } },
    });
    return { success: true as const };
  });
}

/**
 * A role still held by members is refused with their count: deleting it would silently change
 * their access. Reassign them first (the console offers it).
 */
export async function deleteRole(ctx: PortalContext, caller: Caller, orgId: string, roleId: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const role = await roleOrError(q, orgId, roleId);
    assertChangeable(role);
    const n = await countRoleHolders(q, orgId, roleId);
    if (n > 0) {
      throw new ApiError(400, `The role '${role.name}' is assigned to ${n} member${n === 1 ? '' : 's'}; assign them another role first.`, [
        `${n} member${n === 1 ? ' holds' : 's hold'} this role.`,
      ]);
    }
    if (await isNewMemberDefaultRole(q, orgId, roleId))
      throw new ApiError(400, `The role '${role.name}' is the default role for new members; change the new-member defaults first.`, [
        'The role is a new-member default.',
      ]);
    await deleteRoleRecord(q, orgId, roleId);
    await recordEvent(q, {
      orgId,
      source: 'role',
      operation: 'delete',
      subjectId: roleId,
      actor: actorOf(caller),
      properties: { name: [role.name] },
      when: now,
      history: { title: role.name, data: { before: { name: role.name, description: role.description, privileges: role.privileges } } },
    });
    return { success: true as const, roleId };
  });
}
