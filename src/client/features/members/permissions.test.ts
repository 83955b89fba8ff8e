import { describe, expect, it } from 'vitest';
import { addMembersPermission, changeRoleOfPermission } from './permissions.ts';
import { roleChoices, toSelectData } from './roleChoices.ts';
import { BASE_ROLE_PRIVILEGES } from '../../../shared/privileges.ts';

const defaultAdmin = { username: 'admin', role: 'org_admin' as const, privileges: ['portal:admin:inviteUsers', 'portal:admin:changeUserRoles'] };
// A custom role that may change roles and invite, and holds what a User holds, but is not a default administrator.
const roleManager = {
  username: 'manager',
  role: 'org_admin' as const,
  roleId: 'managerRoleId00',
  privileges: ['portal:admin:changeUserRoles', 'portal:admin:inviteUsers', ...BASE_ROLE_PRIVILEGES.org_user],
};
const plainUser = { username: 'plain', role: 'org_user' as const, privileges: ['portal:user:viewOrgUsers'] };

describe('members permissions', () => {
  it('adding members: default administrators or portal:admin:inviteUsers', () => {
    expect(addMembersPermission(defaultAdmin).allowed).toBe(true);
    // A default administrator as the portal reports one: holding every privilege of the base role.
    expect(addMembersPermission({ role: 'org_admin', privileges: [...BASE_ROLE_PRIVILEGES.org_admin] }).allowed).toBe(true);
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

  it('nobody changes their own role, default administrators included', () => {
    for (const me of [defaultAdmin, roleManager]) {
      const own = changeRoleOfPermission(me, { username: me.username.toUpperCase(), role: me.role });
      expect(own).toEqual({ allowed: false, missing: 'another member', reason: 'You cannot change your own role.' });
    }
  });

  it('only a default administrator may make someone an administrator; others give only roles they hold entirely', () => {
    const forManager = roleChoices(roleManager, [
      { id: 'r2', name: 'Analyst' },
      { id: 'r3', name: 'Member viewer', privileges: ['portal:user:viewOrgUsers'] },
      { id: 'r4', name: 'Role admin', privileges: ['portal:admin:manageRoles', 'portal:admin:changeUserRoles'] },
    ]);
    expect(forManager[0].items.find((i) => i.value === 'org_admin')).toMatchObject({ disabled: true, note: 'default administrators only' });
    expect(forManager[0].items.find((i) => i.value === 'org_user')?.disabled).toBeUndefined();
    const publisher = forManager[0].items.find((i) => i.value === 'org_publisher')!;
    expect(publisher).toMatchObject({
      disabled: true,
      note: expect.stringMatching(/^you lack portal:publisher:publishFeatures, portal:publisher:publishTiles and \d+ more$/),
    });
    expect(publisher.reason).toMatch(/^You cannot assign the role 'Publisher': it holds privileges you do not hold \(portal:publisher:publishFeatures, /);
    // A custom role whose privileges could not be read is left to the portal.
    expect(forManager[1].items).toEqual(
      [
        { value: 'r3', label: 'Member viewer' },
        {
          value: 'r4',
          label: 'Role admin',
          disabled: true,
          reason: "You cannot assign the role 'Role admin': it holds privileges you do not hold (portal:admin:manageRoles).",
          note: 'you lack portal:admin:manageRoles',
        },
        { value: 'r2', label: 'Analyst' },
      ].sort((a, b) => a.label.localeCompare(b.label)),
    );
    expect(toSelectData(forManager)[1].items.find((i) => i.value === 'r4')).toEqual({
      value: 'r4',
      label: 'Role admin (you lack portal:admin:manageRoles)',
      disabled: true,
    });
    const forAdmin = roleChoices(defaultAdmin, undefined);
    expect(forAdmin).toHaveLength(1);
    expect(forAdmin[0].items.map((i) => [i.label, !!i.disabled])).toEqual([
      ['Administrator', false],
      ['Publisher', false],
      ['User', false],
    ]);
  });
});
