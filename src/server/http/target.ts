/**
 * What an operation acts on, and the one place the service decides whether the caller may.
 *
 * An operation declares its `target` beside its `authority` (operation.ts): the wrapper loads the
 * target, decides with the declared authority (http/authority.ts: the shared table plus the
 * organization check) and hands the handler the authorized target, or answers the refusal the
 * target names. Services then take the target as authorized and re-decide nothing.
 */
import type { PortalContext } from '../context.ts';
import type { Privilege } from '../../shared/privileges.ts';
import { assertPathUser, type Caller } from './auth.ts';
import { mayActOn, type ActOnOptions, type Authority } from './authority.ts';
import { forbidden } from './errors.ts';
import { requireOwnerNeeds } from './policies.ts';

/** What loading a target reads of the request. */
export interface TargetRequest {
  caller: Caller;
  path: Record<string, string>;
  portal: PortalContext;
  /** The request's parsed parameters, for a target they name (an add-to-groups job's groups). */
  params?: unknown;
}

/** A loaded target: its value for the handler, the organization it belongs to and its owner, if any. */
export interface Loaded<T> {
  value: T;
  orgId: string;
  ownerId?: string | null;
  /**
   * Members who act on it as its owner does, wherever their organization (a group's managers, for
   * the operations ArcGIS lets managers do). Only the caller's presence is read, so a target that
   * knows just the caller's own standing may list the caller alone, or no one.
   */
  managers?: readonly string[];
  /** The refusals for this request, where their words name what was loaded (the member in a task path); else the target's. */
  refusals?: Refusals;
}

/** The 403 details a refusal answers, as each area has always worded them. */
export interface Refusals {
  /** The target belongs to another organization. */
  otherOrg: string;
  /** The caller lacks a declared privilege; by default "Requires the privilege <id>.". */
  missing?: (privilege: Privilege) => string;
  /** The authority is reserved to default administrators (or the owner) and the caller is neither. */
  notDefaultAdmin?: string;
  /** The owner lacks what the declaration asks of owners (ownerNeeds); by default "Requires the privilege <id>.". */
  ownerLacks?: (privilege: Privilege) => string;
}

export interface Target<T> {
  load(req: TargetRequest): Promise<Loaded<T>>;
  refusals: Refusals;
}

/**
 * Refuses, with the target's own wording, unless `authority` lets the caller act on `loaded`. The
 * decision is the shared mayActOn (the console's canOn asks the same): the owner (and its `managers`)
 * acts on what they own where the authority says so (`ownerOr`, `ownerOrDefaultAdmin`); everyone else
 * needs the organization and what the authority asks (authorityGrants). Only the words are here.
 */
export function decide(authority: Authority, caller: Caller, loaded: Loaded<unknown>, targetRefusals: Refusals, options: ActOnOptions = {}): void {
  const refusals = loaded.refusals ?? targetRefusals;
  const owned = (loaded.ownerId != null && loaded.ownerId === caller.userId) || !!loaded.managers?.includes(caller.userId);
  const verdict = mayActOn(authority, caller, { orgId: loaded.orgId, owned }, options);
  if (verdict.allowed) return;
  switch (verdict.refused) {
    case 'ownerLacks':
      throw forbidden(refusals.ownerLacks ? refusals.ownerLacks(verdict.privilege) : `Requires the privilege ${verdict.privilege}.`);
    case 'otherOrg':
      throw forbidden(refusals.otherOrg);
    case 'missing':
      throw forbidden(verdict.privilege && refusals.missing ? refusals.missing(verdict.privilege) : `Requires the privilege ${verdict.privilege}.`);
    case 'reserved':
      throw forbidden(refusals.notDefaultAdmin ?? refusals.otherOrg);
  }
}

/**
 * An operation on the caller's own account or content that loads no target (addItem, addPart,
 * addRelationship…): a `:username` in the path must name the caller, who must hold what the
 * declaration asks of the owner (ownerNeeds). Other authorities are decided with their target.
 */
export function decideOwn(authority: Authority, caller: Caller, path: Record<string, string | undefined>): void {
  if (authority.kind !== 'own') return;
  if (path.username !== undefined) assertPathUser(caller, path.username);
  requireOwnerNeeds(caller, authority);
}

/** The organization named by the path's `:orgId` — `self` the caller's own when `self` is set — as an organization-wide operation's target. */
export function orgTarget(refusals: Refusals, options: { self?: boolean } = {}): Target<{ orgId: string }> {
  return {
    refusals,
    async load({ caller, path }) {
      const orgId = options.self && path.orgId === 'self' ? caller.orgId : path.orgId;
      return { value: { orgId }, orgId };
    },
  };
}
