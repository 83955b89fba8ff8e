/**
 * What a policy or an expiration does to a member, inside the transaction that claimed the work:
 * disabling goes through the users area's one disable write (writeMemberDisabled: tokens end, the
 * `disable` event and history), a move writes the role and user type with the events the role and
 * user-type operations write. Undo puts back what a run changed, where nobody changed it since.
 */
import type { BaseRole } from '../../../shared/privileges.ts';
import { userTypeRefusal } from '../../../shared/userTypes.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent, recordEvents } from '../../store/events.ts';
import { isAdministratorRole, resolveRole, type ResolvedRole } from '../roles/service.ts';
import { setUserLicenseType, setUserRole, writeMemberDisabled } from '../users/service.ts';
import { DAY_MS, inactiveMembers, recordWarnings, type ActedMember, type CandidateRow, type MemberState, type PolicyRow } from './repo.ts';

type Actor = { userId: string; username: string } | null;

export interface PolicyPlan {
  warn: CandidateRow[];
  act: CandidateRow[];
  skipped: { member: CandidateRow; reason: string }[];
}

/** The move's role, or why the policy cannot move anyone now (its role was deleted or no longer suits the user type). */
export async function moveTarget(q: Queryable, policy: PolicyRow): Promise<{ role?: ResolvedRole; refusal?: string }> {
  if (policy.action !== 'move') return {};
  try {
    const role = await resolveRole(q, policy.org_id, policy.role ?? '');
    if (isAdministratorRole(role)) return { refusal: 'A policy does not move members to the Administrator role.' };
    const refusal = userTypeRefusal(policy.user_license_type ?? '', role);
    return refusal ? { refusal } : { role };
  } catch {
    return { refusal: `The role '${policy.role}' no longer exists.` };
  }
}

/** Who the policy touches at `now`: the preview and the run read this one plan. */
export async function planPolicy(q: Queryable, policy: PolicyRow, now: number, lock = false): Promise<PolicyPlan> {
  const members = await inactiveMembers(q, policy.org_id, policy.id, now - policy.warn_after_days * DAY_MS, lock);
  const actBefore = now - policy.act_after_days * DAY_MS;
  const target = await moveTarget(q, policy);
  const plan: PolicyPlan = { warn: [], act: [], skipped: [] };
  for (const m of members) {
    if (m.administrator) plan.skipped.push({ member: m, reason: "An administrator's account is never changed by a policy." });
    else if (m.inactive_since > actBefore) {
      if (m.warned_at === null) plan.warn.push(m);
    } else if (target.refusal) plan.skipped.push({ member: m, reason: target.refusal });
    else if (target.role && m.role === target.role.role && m.role_id === target.role.roleId && m.user_license_type_id === policy.user_license_type) {
      plan.skipped.push({ member: m, reason: 'Already has the role and user type the policy moves members to.' });
    } else plan.act.push(m);
  }
  return plan;
}

/** Carries out a plan: warning events, then each member disabled or moved; answers what undo needs. */
export async function applyPlan(q: Queryable, policy: PolicyRow, plan: PolicyPlan, runId: string, now: number): Promise<ActedMember[]> {
  await recordWarnings(
    q,
    policy.id,
    plan.warn.map((m) => m.id),
    now,
  );
  await recordEvents(
    q,
    plan.warn.map((m) => ({
      orgId: m.org_id,
      source: 'user' as const,
      operation: 'inactivityWarning',
      subjectId: m.username,
      actor: null,
      when: now,
      properties: {
        policyId: policy.id,
        policyTitle: policy.title,
        inactiveSince: m.inactive_since,
        actionAt: m.inactive_since + policy.act_after_days * DAY_MS,
        action: policy.action,
      },
      history: { title: m.full_name || m.username },
    })),
  );
  const target = await moveTarget(q, policy);
  const acted: ActedMember[] = [];
  const detail = { policy: policy.id, run: runId };
  for (const m of plan.act) {
    const before = { disabled: m.disabled, role: m.role, roleId: m.role_id, userLicenseTypeId: m.user_license_type_id };
    if (policy.action === 'disable') {
      await writeMemberDisabled(q, m, true, null, now, detail);
      acted.push({ userId: m.id, username: m.username, action: 'disable', before });
    } else if (target.role) {
      const after = { role: target.role.role, roleId: target.role.roleId, userLicenseTypeId: policy.user_license_type! };
      await moveMember(q, m, after, null, now, detail);
      acted.push({ userId: m.id, username: m.username, action: 'move', before, after });
    }
  }
  return acted;
}

interface RoleAndType {
  role: string;
  roleId: string | null;
  userLicenseTypeId: string;
}

/** Writes a role and a user type with the events updateUserRole and updateUserLicenseType write. */
async function moveMember(q: Queryable, m: MemberState | CandidateRow, to: RoleAndType, actor: Actor, now: number, detail: Record<string, unknown>) {
  const title = m.full_name || m.username;
  if (m.role !== to.role || m.role_id !== to.roleId) {
    await setUserRole(q, m.id, to.role as BaseRole, to.roleId, now);
    await recordEvent(q, {
      orgId: m.org_id,
      source: 'user',
      operation: 'updateUserRole',
      subjectId: m.username,
      actor,
      properties: { userRoleUpdatedTo: [to.roleId ?? to.role] },
      when: now,
      history: { title, data: { before: { role: m.role, roleId: m.role_id }, after: { role: to.role, roleId: to.roleId }, ...detail } },
    });
  }
  if (m.user_license_type_id !== to.userLicenseTypeId) {
    await setUserLicenseType(q, m.id, to.userLicenseTypeId, now);
    await recordEvent(q, {
      orgId: m.org_id,
      source: 'user',
      operation: 'updateUserLicenseType',
      subjectId: m.username,
      actor,
      properties: { userLicenseTypeUpdatedTo: [to.userLicenseTypeId] },
      when: now,
      history: { title, data: { before: { userLicenseTypeId: m.user_license_type_id }, after: { userLicenseTypeId: to.userLicenseTypeId }, ...detail } },
    });
  }
}

export interface UndoResult {
  username: string;
  status: boolean;
  error?: { code: number; message: string };
}

/**
 * Puts one acted-on member back: re-enabled, or their role and user type restored. A member
 * changed again since the run (enabled by hand, given another role) is left as they are.
 */
export async function undoMember(q: Queryable, a: ActedMember, now: MemberState | undefined, actor: Actor, at: number, detail: Record<string, unknown>) {
  const refused = (message: string): UndoResult => ({ username: a.username, status: false, error: { code: 400, message } });
  if (!now) return refused('The member no longer exists.');
  if (a.action === 'disable') {
    if (!now.disabled) return refused('The member was enabled since the run.');
    await writeMemberDisabled(q, now, false, actor, at, detail);
    return { username: a.username, status: true };
  }
  const after = a.after!;
  if (now.role !== after.role || now.role_id !== after.roleId) return refused('The member was given another role since the run.');
  if (now.user_license_type_id !== after.userLicenseTypeId) return refused('The member was given another user type since the run.');
  await moveMember(q, now, a.before, actor, at, detail);
  return { username: a.username, status: true };
}
