/**
 * The console asks the service's own table: for every operation declared beside its contract and
 * every role of the privilege catalogue (the base roles, the built-in custom roles and a custom role
 * per administrative privilege), can() allows exactly what authorityGrants grants, and a refusal
 * names what the table asks. The target rules read the shared memberActionRefusal.
 */
import { describe, expect, it } from 'vitest';
import { authorityGrants, mayActOn, type AuthorityHolder } from '../../shared/authority.ts';
import { OPERATIONS, type OperationName } from '../../shared/contract/operations.ts';
import {
  BASE_ROLE_PRIVILEGES,
  BASE_ROLES,
  baseRoleForPrivileges,
  type BaseRole,
  BUILT_IN_ROLES,
  isAdministrativePrivilege,
  PRIVILEGES,
  rolePrivileges,
} from '../../shared/privileges.ts';
import { can, canOn, declaredPrivilege } from './can.ts';

interface WireMember {
  name: string;
  username: string;
  role: BaseRole;
  roleId: string | null;
  privileges: string[];
}

const customRole = (name: string, ids: Iterable<string>): WireMember => {
  const privileges = [...rolePrivileges('org_user', ids)];
  return { name, username: name, role: baseRoleForPrivileges(privileges), roleId: `role${name}`, privileges };
};

const ROLES: WireMember[] = [
  ...BASE_ROLES.map((role) => ({ name: role, username: role, role, roleId: null, privileges: [...BASE_ROLE_PRIVILEGES[role]] })),
  ...BUILT_IN_ROLES.map((r) => customRole(r.name, r.privileges)),
  ...PRIVILEGES.filter((p) => isAdministrativePrivilege(p.id)).map((p) => customRole(p.id, [p.id])),
];

/** The member as the service holds them: their role's privileges, and whether they are a default administrator. */
const serviceHolder = (m: WireMember): AuthorityHolder => ({
  privileges: m.roleId === null ? rolePrivileges(m.role, null) : rolePrivileges('org_user', m.privileges),
  isDefaultAdmin: m.role === 'org_admin' && m.roleId === null,
});

const NAMES = Object.keys(OPERATIONS) as OperationName[];

describe('can(user, operation)', () => {
  it('allows exactly what the shared table grants, for every role of the catalogue', () => {
    expect(ROLES.length).toBeGreaterThan(20);
    for (const m of ROLES) {
      for (const op of NAMES) {
        expect({ role: m.name, op, allowed: can(m, op).allowed }).toEqual({ role: m.name, op, allowed: authorityGrants(OPERATIONS[op], serviceHolder(m)) });
      }
    }
  });

  it('names the missing privilege, or whom the operation is reserved to', () => {
    const user = ROLES.find((m) => m.name === 'org_user')!;
    expect(can(user, 'createWebhook', undefined, 'create webhooks')).toEqual({
      allowed: false,
      missing: 'portal:admin:manageWebhooks',
      reason: expect.stringMatching(/^To create webhooks you need the privilege “.+” \(portal:admin:manageWebhooks\)\.$/),
    });
    const roleAdmin = ROLES.find((m) => m.name === 'portal:admin:manageRoles')!;
    expect(can(roleAdmin, 'deleteRole', undefined, 'delete roles')).toEqual({
      allowed: false,
      missing: 'default administrator',
      reason: 'Only a default administrator can delete roles.',
    });
    expect(can(null, 'listRoles').allowed).toBe(false);
  });

  it('refuses one’s own account, and an administrator’s to anyone but a default administrator', () => {
    const admin = ROLES.find((m) => m.name === 'org_admin')!;
    const disabler = ROLES.find((m) => m.name === 'portal:admin:disableUsers')!;
    const administrator = { username: 'other_admin', role: 'org_admin', roleId: null };
    const publisher = { username: 'pub', role: 'org_publisher' };
    expect(can(admin, 'disableUser', { username: admin.username.toUpperCase(), role: admin.role }, 'disable members')).toEqual({
      allowed: false,
      missing: 'another member',
      reason: 'You cannot do this to your own account.',
    });
    expect(can(admin, 'disableUser', administrator).allowed).toBe(true);
    expect(can(disabler, 'disableUser', publisher).allowed).toBe(true);
    expect(can(disabler, 'disableUser', administrator, { action: 'disable members', administrator: 'disable an administrator' })).toEqual({
      allowed: false,
      missing: 'default administrator',
      reason: 'Only a default administrator can disable an administrator.',
    });
    // A custom role with administrative privileges is org_admin on the wire, and not an administrator's account.
    expect(can(disabler, 'disableUser', { username: 'x', role: 'org_admin', roleId: 'r1' }).allowed).toBe(true);
    // Target rules belong to operations on an account only.
    expect(can(disabler, 'listWebhooks', publisher).allowed).toBe(false);
  });

  it('answers for content, groups, tasks and the history as the service declares them', () => {
    const user = ROLES.find((m) => m.name === 'org_user')!;
    const admin = ROLES.find((m) => m.name === 'org_admin')!;
    const itemUpdater = ROLES.find((m) => m.name === 'portal:admin:updateItems')!;
    const itemViewer = ROLES.find((m) => m.name === 'portal:admin:viewItems')!;
    expect(can(user, 'updateItem', undefined, 'change this item')).toEqual({
      allowed: false,
      missing: 'portal:admin:updateItems',
      reason: expect.stringMatching(/^To change this item you need the privilege “.+” \(portal:admin:updateItems\)\.$/),
    });
    expect(can(itemUpdater, 'updateItem').allowed).toBe(true);
    expect(can(itemUpdater, 'deleteItem')).toMatchObject({ allowed: false, missing: 'portal:admin:deleteItems' });
    expect(can(admin, 'addGroupUsers').allowed).toBe(true);
    expect(can(user, 'addGroupUsers')).toMatchObject({ allowed: false, missing: 'portal:admin:assignToGroups' });
    // The history needs every view privilege: viewing items alone is not enough.
    expect(can(itemViewer, 'history')).toMatchObject({ allowed: false, missing: 'portal:admin:viewUsers' });
    expect(can(admin, 'history').allowed).toBe(true);
    // Another member's tasks and the organization's list: default administrators only, whatever privileges a custom role holds.
    expect(can(admin, 'allScheduledTasks').allowed).toBe(true);
    for (const m of ROLES.filter((r) => r.roleId !== null)) expect(can(m, 'allScheduledTasks').allowed).toBe(false);
  });

  it('names the privilege an operation asks of an administrator, none where it names no privilege', () => {
    expect(declaredPrivilege('updateItem')).toBe('portal:admin:updateItems');
    expect(declaredPrivilege('userContent')).toBe('portal:admin:viewItems');
    expect(declaredPrivilege('addGroupUsers')).toBe('portal:admin:assignToGroups');
    expect(declaredPrivilege('reassignItem')).toBe('portal:admin:reassignItems');
    expect(declaredPrivilege('addItem')).toBe('');
    expect(declaredPrivilege('allScheduledTasks')).toBe('');
  });
});

describe('canOn(user, operation, target)', () => {
  const TARGETS = [
    { orgId: 'o1', owned: true },
    { orgId: 'o1', owned: false },
    { orgId: 'o2', owned: true },
    { orgId: 'o2', owned: false },
  ];

  it('decides exactly as the service decides (mayActOn), for every role, operation and kind of target', () => {
    const differing: string[] = [];
    for (const m of ROLES) {
      const holder = { ...serviceHolder(m), orgId: 'o1' };
      const user = { ...m, orgId: 'o1' };
      for (const op of NAMES) {
        for (const target of TARGETS) {
          if (canOn(user, op, target).allowed !== mayActOn(OPERATIONS[op], holder, target).allowed) differing.push(`${m.name} ${op} ${JSON.stringify(target)}`);
        }
      }
    }
    expect(differing).toEqual([]);
  });

  it('words an owner lacking what owners need as ownerPermission does, and the rest as can() or as told', () => {
    const user = { ...ROLES.find((m) => m.name === 'org_user')!, orgId: 'o1', privileges: [] };
    expect(canOn(user, 'updateItem', { orgId: 'o1', owned: true }, 'change this item')).toEqual({
      allowed: false,
      missing: 'portal:user:createItem',
      reason: expect.stringMatching(/^To change this item you need the privilege .*\(portal:user:createItem\)\.$/),
    });
    expect(canOn(user, 'updateItem', { orgId: 'o1', owned: false }, 'change this item')).toEqual(can(user, 'updateItem', undefined, 'change this item'));
    expect(canOn(user, 'updateItem', { orgId: 'o2', owned: false }, 'change this item')).toEqual({
      allowed: false,
      missing: 'organization',
      reason: 'Only a member of its organization can change this item.',
    });
    expect(canOn(user, 'updateItem', { orgId: 'o2', owned: false }, { action: 'change this item', notOwnerOrAdmin: 'Ask the owner.' })).toEqual({
      allowed: false,
      missing: 'portal:admin:updateItems',
      reason: 'Ask the owner.',
    });
  });

  it('asks the authority first where the declaration says so (reassign), as the service does', () => {
    const admin = { ...ROLES.find((m) => m.name === 'org_admin')!, orgId: 'o1', privileges: ['portal:admin:reassignItems'] };
    // The administrator lacks the owner's portal:user:reassignItems, yet transfers their own items.
    expect(canOn(admin, 'reassignItems', { orgId: 'o1', owned: true }).allowed).toBe(true);
    // An owner without either privilege is refused for what owners must hold.
    const owner = { ...admin, privileges: [] };
    expect(canOn(owner, 'reassignItems', { orgId: 'o1', owned: true })).toMatchObject({ allowed: false, missing: 'portal:user:reassignItems' });
  });
});
