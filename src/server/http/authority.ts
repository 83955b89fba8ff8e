/**
 * The authority table (src/shared/authority.ts) as the service applies it: the same declarations,
 * plus the rule that no authority reaches across organizations.
 */
import { authorityGrants, type Authority } from '../../shared/authority.ts';
import type { Caller } from './auth.ts';

export * from '../../shared/authority.ts';

/**
 * Whether the caller, not owning the object, may act on it under `authority` in organization `orgId`.
 * The owner's own power is the service's business (ownership is the object's fact, not a privilege).
 */
export function grantsOthers(caller: Caller, authority: Authority, orgId: string): boolean {
  return caller.orgId === orgId && authorityGrants(authority, caller);
}
