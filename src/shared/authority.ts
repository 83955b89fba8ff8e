/**
 * Who may act on what another member owns — the one table every administrative decision reads, in
 * both halves: the service decides with it (src/server/http/authority.ts adds the organization
 * check), the console reads the same declarations to show an action as allowed or not.
 *
 * Each REST operation declares its authority next to its path; the generated privilege matrix
 * (src/server/privilege-matrix.test-support.ts) walks the registered routes and checks each declaration
 * against what the service actually does, for custom roles holding each administrative privilege.
 *
 * A member's base role never decides: a custom role holding any `portal:admin:*` privilege has the
 * base role `org_admin` on the wire (as ArcGIS shows it), so "role === 'org_admin'" would hand the
 * whole organization to a role that was given one administrative privilege.
 */
import type { Privilege } from './privileges.ts';

/** What a decision reads of a member: their privileges, and whether they are a default administrator (facts §1.9). */
export interface AuthorityHolder {
  privileges: ReadonlySet<Privilege>;
  isDefaultAdmin: boolean;
}

export type Authority =
  /** Acts only on the caller's own account and objects (or what is shared with them); no privilege reaches another member's. */
  | ({ kind: 'own'; reaches?: Authority } & OwnerNeeds)
  /** Any member of the object's organization; no privilege needed (the organization's roles, its description). */
  | { kind: 'member' }
  /** Anyone who can see the object by its sharing; an administrative privilege may widen what is visible. */
  | { kind: 'visible'; widenedBy: readonly Privilege[] }
  /** The object's owner (or a group's managers), or a member of its organization holding every privilege listed. */
  | ({ kind: 'ownerOr'; privileges: readonly Privilege[] } & OwnerNeeds)
  /** The object's owner, or a default administrator of its organization (ArcGIS reserves the power to them). */
  | ({ kind: 'ownerOrDefaultAdmin' } & OwnerNeeds)
  /** Members of the organization holding every privilege listed: organization-wide settings and objects. */
  | { kind: 'privileges'; privileges: readonly Privilege[] }
  /** Only default administrators of the organization. */
  | { kind: 'defaultAdmin' };

/**
 * What the owner must hold to act on their own object — a member's content needs
 * portal:user:createItem (ITEM_OPERATIONS): without it the owner is refused "Requires the privilege
 * <id>." as anyone lacking it is. Declared here so the service (operation(), the upload intake, an
 * item's change check) and the console (lib/can.ts ownerPermission) read one rule.
 */
export interface OwnerNeeds {
  ownerNeeds?: Privilege;
  /**
   * The authority is asked before ownership: an administrator it admits acts on their own object as
   * on anyone's, without ownerNeeds (reassign: administrators transfer their own items too).
   */
  authorityFirst?: boolean;
}

/** The authorities the owner acts under, whose ownerNeeds may be declared. */
export type OwnerAuthority = Extract<Authority, { kind: 'own' | 'ownerOr' | 'ownerOrDefaultAdmin' }>;

export const own = (): OwnerAuthority => ({ kind: 'own' });
/**
 * `own` for an operation done only under the caller's own name that may still reach further than
 * their own objects: createTask is the member's alone, yet a default administrator may schedule it
 * on another member's item. What it reaches beyond its path is `reaches`, handed to the service as
 * ctx.reach (http/reach.ts) instead of being decided there.
 */
export const ownReaching = (reaches: Authority): OwnerAuthority => ({ kind: 'own', reaches });
export const member = (): Authority => ({ kind: 'member' });
export const visible = (...widenedBy: Privilege[]): Authority => ({ kind: 'visible', widenedBy });
export const ownerOr = (...privileges: Privilege[]): OwnerAuthority => ({ kind: 'ownerOr', privileges });
export const ownerOrDefaultAdmin = (): OwnerAuthority => ({ kind: 'ownerOrDefaultAdmin' });
export const privileges = (...ids: Privilege[]): Authority => ({ kind: 'privileges', privileges: ids });
export const defaultAdmin = (): Authority => ({ kind: 'defaultAdmin' });
/** `authority`, with what the owner must hold to act on their own object. */
export const ownerNeeding = (ownerNeeds: Privilege, authority: OwnerAuthority): OwnerAuthority => ({ ...authority, ownerNeeds });

/** `authority`, asked before ownership (OwnerNeeds.authorityFirst). */
export const authorityFirst = (authority: OwnerAuthority): OwnerAuthority => ({ ...authority, authorityFirst: true });

/** What the owner must hold under `authority` (OwnerNeeds), if anything. */
export const ownerNeedsOf = (authority: Authority): Privilege | undefined => ('ownerNeeds' in authority ? authority.ownerNeeds : undefined);

/**
 * Whether a member holding `holder.privileges` (a default administrator or not), not owning the
 * object, may act on it under `authority` — their organization's object. The one reading of the
 * table: services ask through grantsOthers, the generated matrix asks it of each declaration.
 */
export function authorityGrants(authority: Authority, holder: AuthorityHolder): boolean {
  const holdsAll = (ids: readonly Privilege[]) => ids.every((p) => holder.privileges.has(p));
  switch (authority.kind) {
    case 'own':
      return false;
    case 'member':
      return true;
    case 'visible':
      return authority.widenedBy.length > 0 && holdsAll(authority.widenedBy);
    case 'ownerOr':
    case 'privileges':
      return holdsAll(authority.privileges);
    case 'ownerOrDefaultAdmin':
    case 'defaultAdmin':
      return holder.isDefaultAdmin;
  }
}

/** Who acts, for mayActOn: what authorityGrants reads of them, and their organization. */
export interface Actor extends AuthorityHolder {
  orgId: string;
}

/** What mayActOn reads of the target: its organization, and whether the actor acts on it as its owner (or one of a group's managers). */
export interface ActOnTarget {
  orgId: string;
  owned: boolean;
}

export interface ActOnOptions {
  /** Ask the authority before ownership, whatever the declaration says (OwnerNeeds.authorityFirst). */
  authorityFirst?: boolean;
}

/**
 * mayActOn's answer: allowed, or which part refused — the owner lacking `ownerNeeds`, another
 * organization, a privilege the authority lists (the first one missing), or an authority reserved to
 * default administrators or the owner. How a refusal reads is each half's own wording.
 */
export type ActOnVerdict =
  | { allowed: true }
  | { allowed: false; refused: 'ownerLacks'; privilege: Privilege }
  | { allowed: false; refused: 'otherOrg' }
  | { allowed: false; refused: 'missing'; privilege: Privilege | undefined }
  | { allowed: false; refused: 'reserved' };

/**
 * May `actor` act on `target` under `authority` — the one decision both halves make (the service's
 * decide() in http/target.ts, the console's canOn() in lib/can.ts). The owner acts where the authority
 * lets owners act (`own`, `ownerOr`, `ownerOrDefaultAdmin`), holding what it asks of owners; everyone
 * else needs the target's organization and what authorityGrants asks.
 */
export function mayActOn(authority: Authority, actor: Actor, target: ActOnTarget, options: ActOnOptions = {}): ActOnVerdict {
  const sameOrg = actor.orgId === target.orgId;
  const first = options.authorityFirst ?? ('authorityFirst' in authority && authority.authorityFirst);
  if (first && sameOrg && authorityGrants(authority, actor)) return { allowed: true };
  if (target.owned && (authority.kind === 'own' || authority.kind === 'ownerOr' || authority.kind === 'ownerOrDefaultAdmin')) {
    const needs = ownerNeedsOf(authority);
    return needs && !actor.privileges.has(needs) ? { allowed: false, refused: 'ownerLacks', privilege: needs } : { allowed: true };
  }
  if (!sameOrg) return { allowed: false, refused: 'otherOrg' };
  if (authorityGrants(authority, actor)) return { allowed: true };
  switch (authority.kind) {
    case 'ownerOr':
    case 'privileges':
    case 'visible': {
      const ids = authority.kind === 'visible' ? authority.widenedBy : authority.privileges;
      return { allowed: false, refused: 'missing', privilege: ids.find((p) => !actor.privileges.has(p)) };
    }
    default:
      return { allowed: false, refused: 'reserved' };
  }
}
