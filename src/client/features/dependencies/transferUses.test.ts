import { describe, expect, it } from 'vitest';
import type { DependencyAnswer, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { newOwnerSees, sharedUses, unseenUses } from './transferUses.ts';

const node = (id: string, access: DependencyNode['access'], owner = 'user1', depth = 1): DependencyNode => ({
  id,
  title: `Item ${id}`,
  type: 'Feature Service',
  owner,
  access,
  contentStatus: null,
  url: null,
  modified: 0,
  depth,
});
const answer = (itemId: string, items: DependencyNode[]): DependencyAnswer =>
  ({ itemId, direction: 'uses', transitive: false, items, edges: [], urls: [], hidden: 0, truncated: false }) as unknown as DependencyAnswer;

describe('what moved items use that the new owner cannot see', () => {
  const owner = { username: 'publisher1', privileges: ['portal:user:createItem'], groupIds: new Set(['g1']) };

  it('public, organization, their own and their groups’ items are seen; another member’s private item is not', () => {
    expect(newOwnerSees(node('a', 'public'), owner, undefined)).toBe(true);
    expect(newOwnerSees(node('a', 'org'), owner, undefined)).toBe(true);
    expect(newOwnerSees(node('a', 'private', 'PUBLISHER1'), owner, undefined)).toBe(true);
    expect(newOwnerSees(node('a', 'private'), owner, undefined)).toBe(false);
    expect(newOwnerSees(node('a', 'shared'), owner, new Map([['a', ['g1']]]))).toBe(true);
    expect(newOwnerSees(node('a', 'shared'), owner, new Map([['a', ['g2']]]))).toBe(false);
    // Groups unknown: not counted as seen.
    expect(newOwnerSees(node('a', 'shared'), owner, undefined)).toBe(false);
    expect(newOwnerSees(node('a', 'private'), { ...owner, privileges: ['portal:admin:viewItems'] }, undefined)).toBe(true);
  });

  it('a row per moved item that uses something unseen; items moved together and further steps left out', () => {
    const answers = [
      answer('map', [node('layer', 'private'), node('map2', 'private'), node('far', 'private', 'user1', 2), node('open', 'org')]),
      answer('map2', [node('open', 'org')]),
    ];
    const moved = [
      { id: 'map', title: 'Map' },
      { id: 'map2', title: 'Map 2' },
    ];
    const rows = unseenUses(answers, moved, owner, undefined);
    expect(rows).toEqual([{ item: { id: 'map', title: 'Map' }, unseen: [answers[0].items[0]] }]);
    expect(sharedUses([answer('map', [node('s', 'shared'), node('map2', 'shared')])], moved).map((n) => n.id)).toEqual(['s']);
  });
});
