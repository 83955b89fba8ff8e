/**
 * What an operation's declared authority lets the caller reach, handed to its handler as data
 * (`ctx.reach`, operation.ts). Where the decision cannot be made once before the handler runs — a
 * listing the authority widens, rows filtered by who may see them, a check that must come after the
 * operation's own 400s, a refusal worded by what was found — the service asks this instead of
 * reading privileges or the authority table: what it may do is worked out here, from the
 * declaration, with the rule that no authority reaches across organizations.
 */
import type { Caller } from './auth.ts';
import { grantsOthers, type Authority } from './authority.ts';
import { holdsOwnerNeeds } from './policies.ts';

export interface Reach {
  /** The declaration it was worked out from, for refusals that name what it asks. */
  readonly authority: Authority;
  /** Whether the caller may act on what another member owns in organization `orgId`. */
  others(orgId: string): boolean;
  /** Whether the caller, acting on their own object, holds what the declaration asks of owners (ownerNeeds). */
  ownerHolds(): boolean;
}

/**
 * What `authority` lets `caller` reach (no caller: nothing of anyone's); for an operation done under
 * the caller's own name that reaches further (ownReaching), what its `reaches` declares.
 */
export function reachOf(caller: Caller | null, authority: Authority): Reach {
  return new DeclaredReach(caller, authority.kind === 'own' && authority.reaches ? authority.reaches : authority);
}

/**
 * Made for every operation's request: methods on the prototype rather than two closures per
 * request, and nothing worked out until a service asks.
 */
class DeclaredReach implements Reach {
  constructor(
    private readonly caller: Caller | null,
    readonly authority: Authority,
  ) {}

  others(orgId: string): boolean {
    return !!this.caller && grantsOthers(this.caller, this.authority, orgId);
  }

  ownerHolds(): boolean {
    return !!this.caller && holdsOwnerNeeds(this.caller, this.authority);
  }
}
