import { describe, expect, it } from 'vitest';
import { defaultAdmin, mayActOn, member, own, ownerNeeding, ownerOr, ownerOrDefaultAdmin, privileges, visible, type Actor } from './authority.ts';
import type { Privilege } from './privileges.ts';

const actor = (orgId: string, ids: Privilege[] = [], isDefaultAdmin = false): Actor => ({ orgId, privileges: new Set(ids), isDefaultAdmin });
const mine = { orgId: 'o1', owned: true };
const others = { orgId: 'o1', owned: false };
const elsewhere = { orgId: 'o2', owned: false };

describe('mayActOn', () => {
  const updateItem = ownerNeeding('portal:user:createItem', ownerOr('portal:admin:updateItems'));

  it('lets the owner act where the authority lets owners act, holding what it asks of owners', () => {
    expect(mayActOn(updateItem, actor('o1', ['portal:user:createItem']), mine)).toEqual({ allowed: true });
    expect(mayActOn(updateItem, actor('o1'), mine)).toEqual({ allowed: false, refused: 'ownerLacks', privilege: 'portal:user:createItem' });
    expect(mayActOn(own(), actor('o1'), mine)).toEqual({ allowed: true });
    expect(mayActOn(ownerOrDefaultAdmin(), actor('o2'), { orgId: 'o1', owned: true })).toEqual({ allowed: true });
  });

  it('does not let the owner act under an authority that names no owner', () => {
    expect(mayActOn(privileges('portal:admin:reassignGroups'), actor('o1'), mine)).toEqual({
      allowed: false,
      refused: 'missing',
      privilege: 'portal:admin:reassignGroups',
    });
    expect(mayActOn(defaultAdmin(), actor('o1'), mine)).toEqual({ allowed: false, refused: 'reserved' });
  });

  it('lets others act only in the target organization, with what the authority asks', () => {
    const admin = actor('o1', ['portal:admin:updateItems']);
    expect(mayActOn(updateItem, admin, others)).toEqual({ allowed: true });
    expect(mayActOn(updateItem, actor('o2', ['portal:admin:updateItems']), others)).toEqual({ allowed: false, refused: 'otherOrg' });
    expect(mayActOn(updateItem, admin, elsewhere)).toEqual({ allowed: false, refused: 'otherOrg' });
    expect(mayActOn(member(), actor('o1'), others)).toEqual({ allowed: true });
  });

  it('names the first privilege missing, or whom the authority is reserved to', () => {
    const both = privileges('portal:admin:viewUsers', 'portal:admin:updateUsers');
    expect(mayActOn(both, actor('o1', ['portal:admin:viewUsers']), others)).toEqual({
      allowed: false,
      refused: 'missing',
      privilege: 'portal:admin:updateUsers',
    });
    expect(mayActOn(visible(), actor('o1'), others)).toEqual({ allowed: false, refused: 'missing', privilege: undefined });
    expect(mayActOn(ownerOrDefaultAdmin(), actor('o1', ['portal:admin:updateItems']), others)).toEqual({ allowed: false, refused: 'reserved' });
    expect(mayActOn(ownerOrDefaultAdmin(), actor('o1', [], true), others)).toEqual({ allowed: true });
    expect(mayActOn(own(), actor('o1', [], true), others)).toEqual({ allowed: false, refused: 'reserved' });
  });

  it('asks the authority first when told: an administrator acts on their own without the owner’s privilege', () => {
    const reassign = ownerNeeding('portal:user:reassignItems', ownerOr('portal:admin:reassignItems'));
    const admin = actor('o1', ['portal:admin:reassignItems']);
    expect(mayActOn(reassign, admin, mine)).toEqual({ allowed: false, refused: 'ownerLacks', privilege: 'portal:user:reassignItems' });
    expect(mayActOn(reassign, admin, mine, { authorityFirst: true })).toEqual({ allowed: true });
    // Another organization's administrator is still decided as the owner.
    expect(mayActOn(reassign, actor('o2', ['portal:admin:reassignItems']), { orgId: 'o1', owned: true }, { authorityFirst: true })).toEqual({
      allowed: false,
      refused: 'ownerLacks',
      privilege: 'portal:user:reassignItems',
    });
  });
});
