import { describe, expect, it } from 'vitest';
import {
  BASE_ROLE_PRIVILEGES,
  BASE_ROLES,
  BUILT_IN_ROLE_IDS,
  BUILT_IN_ROLES,
  PRIVILEGE_AREAS,
  PRIVILEGE_IDS,
  PRIVILEGES,
  baseRoleForPrivileges,
  isAdministrativePrivilege,
  privilegeById,
  rolePrivileges,
  withImplied,
  type Privilege,
} from './privileges.ts';

describe('the catalogue', () => {
  it('has unique ids', () => {
    const ids = PRIVILEGES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(PRIVILEGE_IDS.size).toBe(ids.length);
  });

  it('gives every privilege a known area, a kind and a label', () => {
    for (const p of PRIVILEGES) {
      expect(PRIVILEGE_AREAS, p.id).toContain(p.area);
      expect(['general', 'administrative'], p.id).toContain(p.kind);
      expect(p.label.length, p.id).toBeGreaterThan(0);
      expect(p.id, p.id).toMatch(/^[a-z]+:[a-z]+:[A-Za-z]+(:[A-Za-z]+)?$/);
    }
  });

  it('names only catalogue ids in implies and requires', () => {
    for (const p of PRIVILEGES)
      for (const other of [...(p.implies ?? []), ...(p.requires ?? [])]) expect(PRIVILEGE_IDS.has(other), `${p.id} → ${other}`).toBe(true);
  });

  it('holds every privilege of the base roles and of the built-in roles', () => {
    for (const role of BASE_ROLES) for (const id of BASE_ROLE_PRIVILEGES[role]) expect(PRIVILEGE_IDS.has(id), `${role}: ${id}`).toBe(true);
    for (const role of BUILT_IN_ROLES) for (const id of role.privileges) expect(PRIVILEGE_IDS.has(id), `${role.name}: ${id}`).toBe(true);
  });

  it('has no duplicates inside a role', () => {
    for (const role of BASE_ROLES) expect(new Set(BASE_ROLE_PRIVILEGES[role]).size).toBe(BASE_ROLE_PRIVILEGES[role].length);
    for (const role of BUILT_IN_ROLES) expect(new Set(role.privileges).size).toBe(role.privileges.length);
  });

  it('gives administrators the whole catalogue, publishers everything users have', () => {
    expect(new Set(BASE_ROLE_PRIVILEGES.org_admin)).toEqual(PRIVILEGE_IDS);
    for (const id of BASE_ROLE_PRIVILEGES.org_user) expect(BASE_ROLE_PRIVILEGES.org_publisher).toContain(id);
    expect(BASE_ROLE_PRIVILEGES.org_user.some(isAdministrativePrivilege)).toBe(false);
    expect(BASE_ROLE_PRIVILEGES.org_publisher.some(isAdministrativePrivilege)).toBe(false);
  });

  it('has the built-in Viewer and Data Editor with 16-character ids', () => {
    expect(BUILT_IN_ROLES.map((r) => [r.id, r.name])).toEqual([
      ['iAAAAAAAAAAAAAAA', 'Viewer'],
      ['iBBBBBBBBBBBBBBB', 'Data Editor'],
    ]);
    expect([...BUILT_IN_ROLE_IDS]).toEqual(['iAAAAAAAAAAAAAAA', 'iBBBBBBBBBBBBBBB']);
  });

  it('looks privileges up by id', () => {
    expect(privilegeById('portal:user:viewOrgUsers')).toMatchObject({ area: 'members', kind: 'general' });
    expect(privilegeById('portal:admin:changeUserRoles')?.kind).toBe('administrative');
    expect(privilegeById('portal:nothing:here')).toBeUndefined();
  });
});

describe('withImplied', () => {
  it('adds edit to fullEdit', () => {
    expect(withImplied(['features:user:fullEdit'])).toEqual(new Set(['features:user:fullEdit', 'features:user:edit']));
  });

  it('adds both edit and fullEdit to manageVersions', () => {
    expect(withImplied(['features:user:manageVersions'])).toEqual(new Set(['features:user:manageVersions', 'features:user:fullEdit', 'features:user:edit']));
  });

  it('leaves privileges without implications alone, and keeps unknown ids', () => {
    expect(withImplied(['portal:user:createItem', 'custom:thing:x'])).toEqual(new Set(['portal:user:createItem', 'custom:thing:x']));
    expect(withImplied([])).toEqual(new Set());
  });

  it('does not add privileges that are only required', () => {
    expect(withImplied(['portal:publisher:publishFeatures']).has('portal:user:createItem')).toBe(false);
  });
});

describe('Privilege', () => {
  it('is the union of the catalogue ids, so a misspelt id does not compile', () => {
    const known: Privilege = 'portal:admin:viewUsers';
    // @ts-expect-error -- not a catalogue id (the plural is)
    const misspelt: Privilege = 'portal:admin:viewUser';
    expect(PRIVILEGE_IDS.has(known)).toBe(true);
    expect(PRIVILEGE_IDS.has(misspelt)).toBe(false);
  });
});

describe('rolePrivileges', () => {
  it('gives a base role its own set, whatever else it is told', () => {
    expect([...rolePrivileges('org_publisher', null)]).toEqual(BASE_ROLE_PRIVILEGES.org_publisher);
    expect(rolePrivileges('org_admin', undefined).size).toBe(PRIVILEGES.length);
  });

  it('gives a custom role its list with what it implies, and nothing of the base role it reports', () => {
    expect([...rolePrivileges('org_admin', ['features:user:fullEdit'])].sort()).toEqual(['features:user:edit', 'features:user:fullEdit']);
  });

  it('gives a custom role whose list is empty (or gone) nothing', () => {
    expect(rolePrivileges('org_user', []).size).toBe(0);
  });

  it('drops ids the catalogue does not know', () => {
    expect([...rolePrivileges('org_user', ['portal:user:createItem', 'portal:user:notAPrivilege'])]).toEqual(['portal:user:createItem']);
  });
});

describe('baseRoleForPrivileges', () => {
  it('is org_admin with any administrative privilege', () => {
    expect(baseRoleForPrivileges(['portal:user:viewOrgUsers', 'portal:admin:changeUserRoles'])).toBe('org_admin');
    expect(baseRoleForPrivileges(['portal:admin:viewUsers'])).toBe('org_admin');
  });

  it('is org_publisher with a publishing privilege and nothing administrative', () => {
    expect(baseRoleForPrivileges(['portal:user:createItem', 'portal:publisher:publishFeatures'])).toBe('org_publisher');
    expect(baseRoleForPrivileges(['premium:publisher:createNotebooks'])).toBe('org_publisher');
  });

  it('is org_user otherwise', () => {
    expect(baseRoleForPrivileges([])).toBe('org_user');
    expect(baseRoleForPrivileges(BUILT_IN_ROLES[0].privileges)).toBe('org_user');
    expect(baseRoleForPrivileges(BUILT_IN_ROLES[1].privileges)).toBe('org_user');
  });

  it('gives each base role back from its own privileges', () => {
    for (const role of BASE_ROLES) expect(baseRoleForPrivileges(BASE_ROLE_PRIVILEGES[role])).toBe(role);
  });
});
