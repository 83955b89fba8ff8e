import { describe, expect, it } from 'vitest';
import { addMembersPermission, changeRoleOfPermission } from './permissions.ts';
import { roleChoices } from './roleChoices.ts';

const defaultAdmin = { role: 'org_admin' as const, privileges: ['portal:admin:inviteUsers', 'portal:admin:changeUserRoles'] };
// A custom role that may change roles and invite, but is not a default administrator.
const roleManager = { role: 'org_admin' as const, roleId: 'managerRoleId00', privileges: ['portal:admin:changeUserRoles', 'portal:admin:inviteUsers'] };
const plainUser = { role: 'org_user' as const, privileges: ['portal:user:viewOrgUsers'] };

describe('members permissions', () => {
  it('adding members: default administrators or portal:admin:inviteUsers', () => {
    expect(addMembersPermission(defaultAdmin).allowed).toBe(true);
    expect(addMembersPermission({ role: 'org_admin', privileges: [] }).allowed).toBe(true);
    expect(addMembersPermission(roleManager).allowed).toBe(true);
    const denied = addMembersPermission(plainUser);
    expect(denied.allowed).toBe(false);
    if (!denied.allowed) expect(denied.reason).toContain('portal:admin:inviteUsers');
  });

  it("only a default administrator may change an administrator's role", () => {
    const admin = { role: 'org_admin', roleId: undefined };
    const publisher = { role: 'org_publisher' };
    expect(changeRoleOfPermission(defaultAdmin, admin).allowed).toBe(true);
    expect(changeRoleOfPermission(roleManager, publisher).allowed).toBe(true);
    const denied = changeRoleOfPermission(roleManager, admin);
    expect(denied.allowed).toBe(false);
    if (!denied.allowed) expect(denied.reason).toMatch(/default administrator/);
    const noPrivilege = changeRoleOfPermission(plainUser, publisher);
    expect(noPrivilege.allowed).toBe(false);
    if (!noPrivilege.allowed) expect(noPrivilege.missing).toBe('portal:admin:changeUserRoles');
  });

  it('only a default administrator may make someone an administrator; custom roles follow the base roles', () => {
    const forManager = roleChoices(roleManager, [{ id: 'r2', name: 'Analyst' }]);
    expect(forManager[0].items.find((i) => i.value === 'org_admin')).toMatchObject({ disabled: true });
    expect(forManager[0].items.find((i) => i.value === 'org_publisher')?.disabled).toBeUndefined();
    expect(forManager[1]).toEqual({ group: 'Custom roles', items: [{ value: 'r2', label: 'Analyst' }] });
    const forAdmin = roleChoices(defaultAdmin, undefined);
    expect(forAdmin).toHaveLength(1);
    expect(forAdmin[0].items.map((i) => [i.label, !!i.disabled])).toEqual([
      ['Administrator', false],
      ['Publisher', false],
      ['User', false],
    ]);
  });
});
