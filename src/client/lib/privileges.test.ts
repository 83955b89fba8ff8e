import { describe, expect, it } from 'vitest';
import { holds, isDefaultAdmin, requirePrivilege } from './privileges.ts';
import { safeReturnTo } from './returnTo.ts';

describe('privilege checks', () => {
  const admin = { role: 'org_admin' as const, privileges: ['portal:admin:inviteUsers'] };
  const customAdmin = { ...admin, roleId: 'r1', privileges: [] };
  const user = { role: 'org_user' as const, privileges: ['portal:user:viewOrgUsers'] };

  it('knows default administrators from custom-role administrators', () => {
    expect(isDefaultAdmin(admin)).toBe(true);
    expect(isDefaultAdmin(customAdmin)).toBe(false);
    expect(holds(user, 'portal:user:viewOrgUsers')).toBe(true);
    expect(holds(user, 'portal:admin:inviteUsers')).toBe(false);
  });

  it('names the missing privilege, with its label, in the reason', () => {
    const p = requirePrivilege(user, 'portal:admin:changeUserRoles', "change members' roles");
    expect(p.allowed).toBe(false);
    if (!p.allowed) {
      expect(p.missing).toBe('portal:admin:changeUserRoles');
      expect(p.reason).toContain('portal:admin:changeUserRoles');
      expect(p.reason).toContain("Change members' roles");
    }
  });
});

describe('return after sign-in', () => {
  it('accepts only paths inside the console', () => {
    expect(safeReturnTo('/members?start=11')).toBe('/members?start=11');
    expect(safeReturnTo('//evil.example/x')).toBeNull();
    expect(safeReturnTo('https://evil.example')).toBeNull();
    expect(safeReturnTo('/sign-in?returnTo=/x')).toBeNull();
    expect(safeReturnTo(null)).toBeNull();
  });
});
