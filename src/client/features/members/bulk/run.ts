/**
 * Sends a bulk action for the members it was planned for and gathers one outcome per member with
 * the portal's words. The wire batching is api/batches.ts's: one request a member (runBulk) where the
 * operation names one member, slices (inBatches, inside setUserLicenseTypes / addUsersToGroup) where
 * it takes a list.
 */
import { addUsersToGroup, deleteUser, describeError, runBulk, setMemberDisabled, setUserLicenseTypes, updateUserRole } from '../../../api/index.ts';
import type { BulkAction } from './plan.ts';

export interface MemberOutcome {
  ok: boolean;
  detail: string;
}

/** How far the run is, in members. */
export type OnProgress = (done: number, total: number) => void;

/** Requests on their way at once when each names one member: a few, so a large run does not flood the portal. */
const CONCURRENCY = 4;

async function perMember(names: readonly string[], work: (name: string) => Promise<unknown>, success: string, onProgress: OnProgress) {
  const outcomes = await runBulk(names, work, { concurrency: CONCURRENCY, onProgress });
  return new Map(outcomes.map((o) => [o.item, o.ok ? { ok: true, detail: success } : { ok: false, detail: describeError(o.error) }]));
}

export async function runBulkAction(orgId: string, action: BulkAction, names: readonly string[], onProgress: OnProgress): Promise<Map<string, MemberOutcome>> {
  switch (action.kind) {
    case 'role':
      return perMember(names, (username) => updateUserRole(orgId, { username, role: action.role }), 'Role changed', onProgress);
    case 'disable':
    case 'enable': {
      const disable = action.kind === 'disable';
      return perMember(names, (username) => setMemberDisabled(username, disable), disable ? 'Disabled' : 'Enabled', onProgress);
    }
    case 'delete':
      return perMember(names, (username) => deleteUser(username), 'Deleted', onProgress);
    case 'userType': {
      const out = new Map<string, MemberOutcome>();
      const batches = await setUserLicenseTypes(orgId, names, action.userLicenseType, { onProgress: (p) => onProgress(p.done, p.total) });
      for (const batch of batches) {
        if (!batch.ok) {
          for (const name of batch.item) out.set(name, { ok: false, detail: describeError(batch.error) });
          continue;
        }
        const byName = new Map(batch.value.results.map((r) => [r.username.toLowerCase(), r]));
        for (const name of batch.item) {
          const r = byName.get(name.toLowerCase());
          // ArcGIS answers only the status; this portal adds why.
          out.set(
            name,
            r?.status ? { ok: true, detail: 'User type changed' } : { ok: false, detail: r?.error?.message ?? 'The portal did not change the user type.' },
          );
        }
      }
      return out;
    }
    case 'groups': {
      const out = new Map<string, MemberOutcome>(names.map((n) => [n, { ok: true, detail: `Added to ${action.groupTitles.join(', ')}` }]));
      const failures = new Map<string, string[]>();
      const fail = (name: string, why: string) => failures.set(name, [...(failures.get(name) ?? []), why]);
      let groupsDone = 0;
      for (const [i, groupId] of action.groupIds.entries()) {
        const title = action.groupTitles[i];
        const batches = await addUsersToGroup(groupId, names, 'users', {
          onProgress: (p) => onProgress(groupsDone * names.length + p.done, names.length * action.groupIds.length),
        });
        for (const batch of batches) {
          if (!batch.ok) {
            for (const name of batch.item) fail(name, `${title}: ${describeError(batch.error)}`);
            continue;
          }
          const reasons = new Map((batch.value.notAddedReasons ?? []).map((r) => [r.username.toLowerCase(), r.reason]));
          for (const name of batch.value.notAdded) fail(name, `${title}: ${reasons.get(name.toLowerCase()) ?? 'not added'}`);
        }
        groupsDone++;
      }
      for (const [name, why] of failures) out.set(name, { ok: false, detail: why.join('; ') });
      return out;
    }
  }
}
