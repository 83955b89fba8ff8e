import { describe, expect, it } from 'vitest';
import { accessAfterTransfer, audienceGaps, gapWho, isNarrower } from './audience.ts';

const G1 = 'a'.repeat(32);
const G2 = 'b'.repeat(32);

describe('audienceGaps', () => {
  it('a public item leaves no gap, whatever the dependent', () => {
    expect(audienceGaps({ access: 'public' }, { access: 'public' })).toEqual([]);
    expect(audienceGaps({ access: 'shared', groups: [G1], owner: 'x' }, { access: 'public', owner: 'y' })).toEqual([]);
  });

  it('a public dependent of an organization item: everyone outside the organization', () => {
    expect(audienceGaps({ access: 'public' }, { access: 'org' })).toEqual([{ kind: 'public' }]);
  });

  it('an organization item reaches an organization dependent and all its groups', () => {
    expect(audienceGaps({ access: 'org', groups: [G1] }, { access: 'org' })).toEqual([]);
    expect(audienceGaps({ access: 'shared', groups: [G1, G2], owner: 'x' }, { access: 'org', owner: 'y' })).toEqual([]);
  });

  it('a public dependent of a private item: everyone and the organization', () => {
    expect(audienceGaps({ access: 'public', groups: [G1] }, { access: 'private' })).toEqual([{ kind: 'public' }, { kind: 'org' }]);
    expect(audienceGaps({ access: 'org' }, { access: 'shared', groups: [G1] })).toEqual([{ kind: 'org' }]);
  });

  it("names each of the dependent's groups the item is not shared with (case of ids ignored)", () => {
    expect(audienceGaps({ access: 'shared', groups: [G1, G2] }, { access: 'shared', groups: [G1.toUpperCase()] })).toEqual([{ kind: 'group', groupId: G2 }]);
    expect(audienceGaps({ access: 'shared', groups: [G1] }, { access: 'shared', groups: [G1, G2] })).toEqual([]);
  });

  it('says when the groups of a group-shared dependent could not be read', () => {
    expect(audienceGaps({ access: 'shared' }, { access: 'private' })).toEqual([{ kind: 'groupsUnknown' }]);
    // A private dependent without groups is seen by its owner alone: no group gap.
    expect(audienceGaps({ access: 'private' }, { access: 'private' })).toEqual([]);
  });

  it("the item's owner always sees it; another owner of the dependent does not (below the organization)", () => {
    expect(audienceGaps({ access: 'private', groups: [], owner: 'Alice' }, { access: 'private', owner: 'alice' })).toEqual([]);
    expect(audienceGaps({ access: 'private', groups: [], owner: 'bob' }, { access: 'private', owner: 'alice' })).toEqual([{ kind: 'owner', username: 'bob' }]);
    expect(audienceGaps({ access: 'private', groups: [], owner: 'bob' }, { access: 'org', owner: 'alice' })).toEqual([]);
  });
});

describe('isNarrower', () => {
  it('a lower level, or a group dropped while below the organization', () => {
    expect(isNarrower({ access: 'public' }, { access: 'org' })).toBe(true);
    expect(isNarrower({ access: 'org' }, { access: 'private', groups: [G1] })).toBe(true);
    expect(isNarrower({ access: 'shared', groups: [G1, G2] }, { access: 'shared', groups: [G1] })).toBe(true);
    expect(isNarrower({ access: 'org', groups: [G1] }, { access: 'org', groups: [] })).toBe(false);
    expect(isNarrower({ access: 'private' }, { access: 'public' })).toBe(false);
    expect(isNarrower({ access: 'shared', groups: [G1] }, { access: 'shared', groups: [G1, G2] })).toBe(false);
  });
});

describe('accessAfterTransfer', () => {
  it('narrows to what the new owner may share, and is undefined without their privileges', () => {
    expect(accessAfterTransfer('public', ['portal:user:shareToOrg'])).toBe('org');
    expect(accessAfterTransfer('public', [])).toBe('private');
    expect(accessAfterTransfer('org', ['portal:user:shareToPublic', 'portal:user:shareToOrg'])).toBe('org');
    expect(accessAfterTransfer('public', ['portal:user:shareToPublic', 'portal:user:shareToOrg'])).toBe('public');
    expect(accessAfterTransfer('shared', [])).toBe('shared');
    expect(accessAfterTransfer('public', undefined)).toBeUndefined();
  });
});

describe('gapWho', () => {
  it('words each audience, groups by title when known', () => {
    expect(gapWho({ kind: 'public' })).toBe('Everyone (public)');
    expect(gapWho({ kind: 'group', groupId: G1 }, (id) => (id === G1 ? 'Field crews' : undefined))).toBe("Members of the group 'Field crews'");
    expect(gapWho({ kind: 'group', groupId: G2 })).toBe(`Members of the group '${G2}'`);
  });
});
