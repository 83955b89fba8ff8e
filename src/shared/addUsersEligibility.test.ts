import { describe, expect, it } from 'vitest';
import { addUsersVerdict, membershipAccessRefusal, type AddUsersFacts } from './addUsersEligibility.ts';

const JOINS = new Set(['portal:user:joinGroup', 'portal:user:joinNonOrgGroup']);
const ADDS_EXTERNAL = new Set(['portal:user:addExternalMembersToGroup']);

/** A member of the group's organization who may join, not in the group, added by a caller who may add outsiders. */
function facts(
  change: { asManager?: boolean; group?: Partial<AddUsersFacts['group']>; caller?: AddUsersFacts['caller']; candidate?: AddUsersFacts['candidate'] } = {},
): AddUsersFacts {
  return {
    asManager: change.asManager ?? false,
    group: { membershipAccess: 'none', externalRoom: true, ...change.group },
    caller: change.caller ?? { privileges: ADDS_EXTERNAL },
    candidate: { exists: true, membership: null, disabled: false, external: false, privileges: JOINS, atGroupLimit: false, ...change.candidate },
  };
}
const refused = (reason: string) => ({ kind: 'refused', reason });

describe('addUsersVerdict (the service knows every fact)', () => {
  it('adds a member of the organization who may join', () => {
    expect(addUsersVerdict(facts())).toEqual({ kind: 'add' });
    expect(addUsersVerdict(facts({ asManager: true }))).toEqual({ kind: 'add' });
  });

  it('refuses a name with no account', () => {
    expect(addUsersVerdict(facts({ candidate: { exists: false } }))).toEqual(refused('no-account'));
  });

  it('leaves members alone, and makes a plain member named as a manager one', () => {
    for (const as of ['owner', 'admin', 'member'] as const) expect(addUsersVerdict(facts({ candidate: { membership: as } }))).toEqual({ kind: 'in-group', as });
    expect(addUsersVerdict(facts({ asManager: true, candidate: { membership: 'member' } }))).toEqual({ kind: 'promote' });
    expect(addUsersVerdict(facts({ asManager: true, candidate: { membership: 'admin' } }))).toEqual({ kind: 'in-group', as: 'admin' });
    // Membership comes before every refusal but a missing account.
    expect(addUsersVerdict(facts({ candidate: { membership: 'member', disabled: true, external: true } }))).toEqual({ kind: 'in-group', as: 'member' });
  });

  it('refuses a disabled account before anything else', () => {
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'org' }, candidate: { disabled: true, external: true, privileges: new Set() } }))).toEqual(
      refused('disabled'),
    );
  });

  it("applies the group's membershipAccess to outsiders only", () => {
    const outsider = { external: true, partnered: false };
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'org' }, candidate: outsider }))).toEqual(refused('access-org'));
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'collaboration' }, candidate: outsider }))).toEqual(refused('access-collaboration'));
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'collaboration' }, candidate: { external: true, partnered: true } }))).toEqual({ kind: 'add' });
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'none' }, candidate: outsider }))).toEqual({ kind: 'add' });
    expect(addUsersVerdict(facts({ group: { membershipAccess: 'org' } }))).toEqual({ kind: 'add' });
  });

  it('asks the member for the privilege to join groups of their own organization or of others', () => {
    expect(addUsersVerdict(facts({ candidate: { privileges: new Set(['portal:user:joinNonOrgGroup']) } }))).toEqual(refused('cannot-join'));
    expect(addUsersVerdict(facts({ candidate: { external: true, privileges: new Set(['portal:user:joinGroup']) } }))).toEqual(refused('cannot-join-external'));
  });

  it('refuses a member already in as many groups as one may be', () => {
    expect(addUsersVerdict(facts({ candidate: { atGroupLimit: true } }))).toEqual(refused('too-many-groups'));
  });

  it('asks the caller for the privilege to add outsiders, then the group for room', () => {
    const none = { privileges: new Set<string>() };
    expect(addUsersVerdict(facts({ caller: none, candidate: { external: true } }))).toEqual(refused('external-not-allowed'));
    expect(addUsersVerdict(facts({ caller: none }))).toEqual({ kind: 'add' });
    expect(addUsersVerdict(facts({ group: { externalRoom: false }, candidate: { external: true } }))).toEqual(refused('external-limit'));
    expect(addUsersVerdict(facts({ group: { externalRoom: false } }))).toEqual({ kind: 'add' });
    expect(addUsersVerdict(facts({ caller: none, group: { externalRoom: false }, candidate: { external: true } }))).toEqual(refused('external-not-allowed'));
  });
});

describe('addUsersVerdict (the console knows some facts)', () => {
  const caller = { privileges: ADDS_EXTERNAL };
  const known = (candidate: AddUsersFacts['candidate'], membershipAccess: 'none' | 'org' | 'collaboration' = 'none', privileges = ADDS_EXTERNAL) =>
    addUsersVerdict({ asManager: false, group: { membershipAccess }, caller: { privileges }, candidate });

  it('passes over the checks whose facts it does not know', () => {
    // A member of the organization: their privileges and groups are the portal's to check.
    expect(known({ exists: true, membership: null, external: false, disabled: false })).toEqual({ kind: 'add' });
    expect(known({ exists: true, membership: null, external: false, disabled: true })).toEqual(refused('disabled'));
    // Not found in the organization: maybe nobody, maybe another organization's member.
    expect(known({ membership: null, external: true }, 'collaboration')).toEqual({ kind: 'add' });
    expect(known({ membership: null, external: true }, 'org')).toEqual(refused('access-org'));
    expect(known({ membership: null, external: true }, 'none', new Set())).toEqual(refused('external-not-allowed'));
    // In the group, nothing else known.
    expect(addUsersVerdict({ asManager: true, group: { membershipAccess: 'none' }, caller, candidate: { membership: 'member' } })).toEqual({ kind: 'promote' });
  });
});

describe('membershipAccessRefusal', () => {
  it('lets in the organization, and anyone when access is none', () => {
    expect(membershipAccessRefusal('org', false, undefined)).toBeNull();
    expect(membershipAccessRefusal('none', true, false)).toBeNull();
  });
  it('keeps outsiders out of org groups, and outsiders not partnered out of collaboration groups', () => {
    expect(membershipAccessRefusal('org', true, true)).toBe('access-org');
    expect(membershipAccessRefusal('collaboration', true, false)).toBe('access-collaboration');
    expect(membershipAccessRefusal('collaboration', true, true)).toBeNull();
    expect(membershipAccessRefusal('collaboration', true, undefined)).toBeNull();
  });
});
