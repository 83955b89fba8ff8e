/**
 * New-member defaults: what `createUser` applies when the request does not say otherwise.
 * An administrator role is never a default; default groups must be groups of the organization.
 */
import type { UserDefaultSettings } from '../../../shared/contract/userDefaultSettings.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import { addsToAnyOrgGroup } from '../../http/policies.ts';
import { orgTarget } from '../../http/target.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { userTypeRefusal } from '../../../shared/userTypes.ts';
import { assertMayGrantRole, resolveRole } from '../roles/service.ts';
import { deleteDefaultsRow, findDefaultsRow, groupsNotManagedBy, orgGroupIdsAmong, upsertDefaults } from './repo.ts';

const EMPTY: UserDefaultSettings = { role: null, userLicenseType: null, groups: [], userType: null, apps: [], appBundles: [] };

export async function readDefaults(q: Queryable, orgId: string): Promise<UserDefaultSettings> {
  const row = await findDefaultsRow(q, orgId);
  if (!row) return EMPTY;
  return { role: row.role, userLicenseType: row.user_license_type, groups: row.groups, userType: row.user_type, apps: row.apps, appBundles: row.app_bundles };
}

/**
 * Read and managed by administrators of the organization holding portal:admin:manageSecurity (a
 * default administrator holds every privilege): the defaults name groups and apps members need not
 * know about (USER_DEFAULTS_OPERATIONS, shared/contract/userDefaultSettings.ts). operation() decides it on the organization in the path (`self` is the caller's own)
 * before any handler runs, so the functions below take their `orgId` as authorized.
 */
export const DEFAULTS_ORG = orgTarget(
  {
    otherOrg: 'New-member defaults can be managed only in your own organization.',
    missing: () => 'Only administrators manage new-member defaults (requires portal:admin:manageSecurity).',
  },
  { self: true },
);

export async function setDefaults(ctx: PortalContext, caller: Caller, orgId: string, input: Partial<UserDefaultSettings>) {
  return ctx.db.tx(async (q) => {
    const current = await readDefaults(q, orgId);
    // Absent keeps a default; null (an empty value on the wire) clears that one alone.
    const pick = <K extends keyof UserDefaultSettings>(k: K): UserDefaultSettings[K] => (input[k] === undefined ? current[k] : input[k]);
    const next: UserDefaultSettings = {
      role: pick('role'),
      userLicenseType: pick('userLicenseType'),
      groups: input.groups ?? current.groups,
      userType: pick('userType'),
      apps: input.apps ?? current.apps,
      appBundles: input.appBundles ?? current.appBundles,
    };
    if (next.role) {
      const resolved = await resolveRole(q, orgId, next.role);
      // Who may grant it comes first, and only when the role changes: a default saved earlier by a
      // default administrator does not stop others from changing the other fields.
      if (next.role !== current.role) assertMayGrantRole(caller, resolved);
      if (resolved.role === 'org_admin') throw badParam('role', 'cannot be an administrator role: new members never become administrators by default');
      // A new member gets both, so they must go together (src/shared/userTypes.ts). Checked when
      // either changes; the field named is the one that changed (the role when both did).
      const refusal =
        next.userLicenseType && (next.role !== current.role || next.userLicenseType !== current.userLicenseType)
          ? userTypeRefusal(next.userLicenseType, resolved)
          : null;
      if (refusal) throw badParam(next.role !== current.role ? 'role' : 'userLicenseType', `is not compatible: ${refusal}`);
    }
    if (next.groups.length) {
      const known = await orgGroupIdsAmong(q, orgId, next.groups);
      const missing = next.groups.filter((g) => !known.has(g));
      if (missing.length) throw badParam('groups', `names groups that are not groups of this organization: ${missing.join(', ')}`);
      await assertMayAddMembersTo(
        q,
        caller,
        next.groups.filter((g) => !current.groups.includes(g)),
      );
    }
    await upsertDefaults(q, orgId, { ...next, groups: [...new Set(next.groups)] }, ctx.clock.now());
    await recordDefaultsChange(q, caller, orgId, current, { ...next, groups: [...new Set(next.groups)] }, ctx.clock.now());
    return { success: true as const };
  });
}

/**
 * A default group is a group every new member joins: one the caller could add members to
 * themselves (its owner or a manager, or a holder of portal:admin:assignToGroups). Otherwise a
 * member who may also create accounts would reach a private group's content through one.
 */
async function assertMayAddMembersTo(q: Queryable, caller: Caller, groupIds: string[]): Promise<void> {
  if (!groupIds.length || addsToAnyOrgGroup(caller)) return;
  const unmanaged = await groupsNotManagedBy(q, groupIds, caller.userId);
  if (unmanaged.length) {
    throw forbidden(
      `You cannot make ${unmanaged.map((g) => `'${g.title}'`).join(', ')} a default group: only its owner, its managers or holders of portal:admin:assignToGroups add members to it.`,
    );
  }
}

/** The organization's history: the whole defaults before and after (undo restores `before`). */
async function recordDefaultsChange(
  q: Queryable,
  caller: Caller,
  orgId: string,
  before: UserDefaultSettings,
  after: UserDefaultSettings,
  now: number,
): Promise<void> {
  await recordEvent(q, {
    orgId,
    source: 'organization',
    operation: 'setUserDefaultSettings',
    subjectId: orgId,
    actor: actorOf(caller),
    when: now,
    history: { op: 'setUserDefaultSettings', title: 'New-member defaults', data: { before: { ...before }, after: { ...after } } },
  });
}

/** Clears every default at once. */
export async function deleteDefaults(ctx: PortalContext, caller: Caller, orgId: string) {
  await ctx.db.tx(async (q) => {
    const current = await readDefaults(q, orgId);
    await deleteDefaultsRow(q, orgId);
    await recordDefaultsChange(q, caller, orgId, current, EMPTY, ctx.clock.now());
  });
  return { success: true as const };
}
