/**
 * `portals/<orgId>/updateUserLicenseType` (POST): gives members another user type. The public
 * reference does not document it; ArcGIS answers it with `users` (comma-separated usernames) and
 * `userLicenseType`, and `{results: [{username, status}]}`, one entry per name. Here the privilege
 * portal:admin:manageLicenses decides (routes.ts), enforced by operation() on LICENSES_ORG, the
 * caller's own organization only; then,
 * member by member, the user-type rule (shared/userTypes.ts): a user type that does not allow the
 * member's role is refused for that member, with the reason in `error`, and that member is left as
 * they were. A name that is not a member of the organization answers as one that does not exist.
 */
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { userNotFound } from '../../http/errors.ts';
import { orgTarget } from '../../http/target.ts';
import { recordEvent } from '../../store/events.ts';
import type { Queryable } from '../../store/db.ts';
import { userTypeRefusal } from '../../../shared/userTypes.ts';
import { resolveRole } from '../roles/service.ts';
import { findUser, setUserLicenseType } from './repo.ts';

export interface LicenseTypeResult {
  username: string;
  status: boolean;
  /** Why this member was not changed (a local extra: ArcGIS answers only `status: false`). */
  error?: { code: number; message: string };
}

/** The organization the path names (`self` or its id); members are looked up in the caller's, which operation() has checked it is. */
export const LICENSES_ORG = orgTarget({ otherOrg: 'You can change user types only in your own organization.' }, { self: true });

/** The caller has been authorized on their own organization (LICENSES_ORG). */
export async function updateUserLicenseType(ctx: PortalContext, caller: Caller, usernames: string[], licenseType: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const results: LicenseTypeResult[] = [];
    for (const username of usernames) results.push(await updateOne(q, caller, username, licenseType, now));
    return { results };
  });
}

async function updateOne(q: Queryable, caller: Caller, username: string, licenseType: string, now: number): Promise<LicenseTypeResult> {
  const target = await findUser(q, username);
  if (!target || target.org_id !== caller.orgId) return { username, status: false, error: { code: 400, message: userNotFound(username).message } };
  const role = await resolveRole(q, target.org_id, target.role_id ?? target.role);
  const refusal = userTypeRefusal(licenseType, role);
  if (refusal) return { username: target.username, status: false, error: { code: 400, message: refusal } };
  const before = target.user_license_type_id;
  if (before === licenseType) return { username: target.username, status: true };
  await setUserLicenseType(q, target.id, licenseType, now);
  await recordEvent(q, {
    orgId: target.org_id,
    source: 'user',
    operation: 'updateUserLicenseType',
    subjectId: target.username,
    actor: actorOf(caller),
    properties: { userLicenseTypeUpdatedTo: [licenseType] },
    when: now,
    history: { title: target.full_name || target.username, data: { before: { userLicenseTypeId: before }, after: { userLicenseTypeId: licenseType } } },
  });
  return { username: target.username, status: true };
}
