/**
 * A bulk action as this portal's server job (api/memberJobs.ts): the job's action and parameters
 * for a BulkAction, and its per-member outcomes in the words the results table shows.
 */
import { allMemberJobResults, createMemberJob, type MemberJob, type MemberJobAction, type MemberJobExtras } from '../../../api/memberJobs.ts';
import type { BulkAction, BulkKind } from './plan.ts';
import type { MemberOutcome } from './run.ts';

function jobOf(action: BulkAction): { action: MemberJobAction; extras: MemberJobExtras } {
  switch (action.kind) {
    case 'role':
      return { action: 'role', extras: { newRole: action.role } };
    case 'userType':
      return { action: 'userType', extras: { newUserLicenseType: action.userLicenseType } };
    case 'groups':
      return { action: 'addToGroups', extras: { groupIds: action.groupIds.join(',') } };
    default:
      return { action: action.kind, extras: {} };
  }
}

export function startServerJob(orgId: string, action: BulkAction, names: readonly string[]) {
  const job = jobOf(action);
  return createMemberJob(orgId, job.action, names, job.extras);
}

export const SUCCESS: Record<BulkKind, string> = {
  role: 'Role changed',
  userType: 'User type changed',
  disable: 'Disabled',
  enable: 'Enabled',
  delete: 'Deleted',
  groups: 'Added to the groups',
};

/** Every member is listed when the job is this small; a larger one lists the members not changed. */
const LIST_ALL_UP_TO = 2000;

/**
 * The finished job's outcomes: each member not changed with the portal's reason, and each one
 * changed (from `names` when this tab started the job, else read from the job when it is small).
 */
export async function serverOutcomes(orgId: string, job: MemberJob, kind: BulkKind, names?: readonly string[]): Promise<Map<string, MemberOutcome>> {
  const out = new Map<string, MemberOutcome>();
  if (names) for (const name of names) out.set(name, { ok: true, detail: SUCCESS[kind] });
  else if (job.total <= LIST_ALL_UP_TO)
    for (const r of await allMemberJobResults(orgId, job.id, 'succeeded')) out.set(r.username, { ok: true, detail: SUCCESS[kind] });
  for (const state of ['failed', 'cancelled'] as const) {
    for (const r of await allMemberJobResults(orgId, job.id, state)) {
      out.set(r.username, { ok: false, detail: r.reason ?? (state === 'cancelled' ? 'Cancelled before this member was reached.' : 'Not changed.') });
    }
  }
  return out;
}
