import { describe, expect, it } from 'vitest';
import { rolePrivileges, type Privilege } from '../../shared/privileges.ts';
import type { PortalContext } from '../context.ts';
import type { UserRow } from '../areas/users/repo.ts';
import type { Caller } from './auth.ts';
import { defaultAdmin, member, own, ownerNeeding, ownerOr, ownerOrDefaultAdmin, privileges, type Authority } from './authority.ts';
import { ApiError } from './errors.ts';
import { decide, decideOwn, orgTarget, type Refusals } from './target.ts';

const ORG = 'org1';

function caller(privilegeIds: Privilege[] | 'default admin', over: Partial<Caller> = {}): Caller {
  const isDefaultAdmin = privilegeIds === 'default admin';
  return {
    userId: 'u-caller',
    username: 'caller',
    orgId: ORG,
    role: isDefaultAdmin ? 'org_admin' : 'org_user',
    roleId: isDefaultAdmin ? null : 'custom',
    privileges: isDefaultAdmin ? rolePrivileges('org_admin', null) : new Set(privilegeIds),
    isDefaultAdmin,
    user: {} as UserRow,
    ...over,
  };
}

const refusals: Refusals = { otherOrg: 'Not in your organization.', notDefaultAdmin: 'Default administrators only.' };

/** The 403 detail decide() answers, or 'allowed'. */
function outcome(authority: Authority, c: Caller, loaded: { orgId: string; ownerId?: string; managers?: string[] }, r: Refusals = refusals): string {
  try {
    decide(authority, c, { value: null, ...loaded }, r);
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(403);
    return String((err as ApiError).details[0]);
  }
}

describe('decide', () => {
  it("lets the owner act on what they own under ownerOr and ownerOrDefaultAdmin, even from another organization's row", () => {
    const owner = caller([], { orgId: 'elsewhere' });
    expect(outcome(ownerOr('portal:admin:updateItems'), owner, { orgId: ORG, ownerId: 'u-caller' })).toBe('allowed');
    expect(outcome(ownerOrDefaultAdmin(), owner, { orgId: ORG, ownerId: 'u-caller' })).toBe('allowed');
  });

  it('asks the owner for what the declaration says owners need (ownerNeeds), and no one else', () => {
    const needs = (c: Caller, loaded: { orgId: string; ownerId: string }) => {
      try {
        decide(ownerNeeding('portal:user:createItem', ownerOr('portal:admin:updateItems')), c, { value: null, ...loaded }, refusals);
        return 'allowed';
      } catch (err) {
        return String((err as ApiError).details[0]);
      }
    };
    expect(needs(caller([]), { orgId: ORG, ownerId: 'u-caller' })).toBe('Requires the privilege portal:user:createItem.');
    expect(needs(caller(['portal:user:createItem']), { orgId: ORG, ownerId: 'u-caller' })).toBe('allowed');
    // An administrator acting on another member's is decided by the authority alone.
    expect(needs(caller(['portal:admin:updateItems']), { orgId: ORG, ownerId: 'u-owner' })).toBe('allowed');
  });

  it("decides an operation on the caller's own content without a target: the path's user, holding what the owner needs", () => {
    const ownContent = ownerNeeding('portal:user:createItem', own());
    const tried = (authority: Authority, c: Caller, path: Record<string, string>) => {
      try {
        decideOwn(authority, c, path);
        return 'allowed';
      } catch (err) {
        return String((err as ApiError).details[0]);
      }
    };
    const creator = caller(['portal:user:createItem']);
    expect(tried(ownContent, creator, { username: creator.username.toUpperCase() })).toBe('allowed');
    expect(tried(ownContent, creator, { username: 'someone' })).toBe('Only someone can do this.');
    expect(tried(ownContent, caller([]), { username: creator.username })).toBe('Requires the privilege portal:user:createItem.');
    // Without ownerNeeds only the path's user is asked; other authorities are decided with their target.
    expect(tried(own(), caller([]), { username: creator.username })).toBe('allowed');
    expect(tried(ownerOr('portal:admin:updateItems'), caller([]), { username: 'someone' })).toBe('allowed');
  });

  it('lets a listed manager act as the owner does, from any organization, where the owner may; not under privileges()', () => {
    const manager = caller([], { orgId: 'elsewhere' });
    expect(outcome(ownerOr('portal:admin:updateGroups'), manager, { orgId: ORG, ownerId: 'u-owner', managers: ['u-caller'] })).toBe('allowed');
    expect(outcome(ownerOr('portal:admin:updateGroups'), manager, { orgId: ORG, ownerId: 'u-owner', managers: ['u-other'] })).toBe('Not in your organization.');
    expect(outcome(privileges('portal:admin:updateGroups'), manager, { orgId: ORG, ownerId: 'u-owner', managers: ['u-caller'] })).toBe(
      'Not in your organization.',
    );
  });

  it('refuses another organization with the target’s wording, whatever the caller holds', () => {
    const admin = caller('default admin', { orgId: 'elsewhere' });
    expect(outcome(privileges('portal:admin:manageWebhooks'), admin, { orgId: ORG })).toBe('Not in your organization.');
    expect(outcome(member(), admin, { orgId: ORG })).toBe('Not in your organization.');
  });

  it('names the first privilege missing, in the default wording or the target’s own', () => {
    const c = caller(['portal:admin:viewUsers']);
    const both = privileges('portal:admin:viewUsers', 'portal:admin:updateUsers');
    expect(outcome(both, c, { orgId: ORG })).toBe('Requires the privilege portal:admin:updateUsers.');
    expect(outcome(both, c, { orgId: ORG }, { ...refusals, missing: (p) => `Needs ${p}.` })).toBe('Needs portal:admin:updateUsers.');
    expect(outcome(both, caller(['portal:admin:viewUsers', 'portal:admin:updateUsers']), { orgId: ORG })).toBe('allowed');
  });

  it('keeps default-administrator powers to default administrators: a custom role holding every privilege is refused', () => {
    const everything = caller([...rolePrivileges('org_admin', null)]);
    expect(outcome(defaultAdmin(), everything, { orgId: ORG })).toBe('Default administrators only.');
    expect(outcome(ownerOrDefaultAdmin(), everything, { orgId: ORG, ownerId: 'someone' })).toBe('Default administrators only.');
    expect(outcome(defaultAdmin(), caller('default admin'), { orgId: ORG })).toBe('allowed');
  });

  it('asks the authority before ownership where the target says so, and words the owner’s refusal its own way', () => {
    const reassign = ownerNeeding('portal:user:reassignItems', ownerOr('portal:admin:reassignItems'));
    const r: Refusals = { ...refusals, ownerLacks: (p) => `Requires the privilege ${p} to transfer your own content.` };
    const run = (c: Caller, options?: { authorityFirst?: boolean }) => {
      try {
        decide(reassign, c, { value: null, orgId: ORG, ownerId: 'u-caller' }, r, options);
        return 'allowed';
      } catch (err) {
        return String((err as ApiError).details[0]);
      }
    };
    const adminOwner = caller(['portal:admin:reassignItems']);
    expect(run(adminOwner, { authorityFirst: true })).toBe('allowed');
    expect(run(adminOwner)).toBe('Requires the privilege portal:user:reassignItems to transfer your own content.');
    expect(run(caller([]), { authorityFirst: true })).toBe('Requires the privilege portal:user:reassignItems to transfer your own content.');
    expect(run(caller(['portal:user:reassignItems']), { authorityFirst: true })).toBe('allowed');
    // Another organization's administrator is not admitted by asking the authority first.
    expect(run(caller(['portal:admin:reassignItems'], { orgId: 'elsewhere', userId: 'u-other' }), { authorityFirst: true })).toBe(refusals.otherOrg);
  });

  it('lets any member of the organization act under member()', () => {
    expect(outcome(member(), caller([]), { orgId: ORG })).toBe('allowed');
  });
});

describe('orgTarget', () => {
  const portal = {} as PortalContext;
  it("reads `self` as the caller's organization only where the area says so", async () => {
    const c = caller([]);
    expect(await orgTarget(refusals, { self: true }).load({ caller: c, path: { orgId: 'self' }, portal })).toEqual({ value: { orgId: ORG }, orgId: ORG });
    expect(await orgTarget(refusals).load({ caller: c, path: { orgId: 'self' }, portal })).toEqual({ value: { orgId: 'self' }, orgId: 'self' });
  });
});
