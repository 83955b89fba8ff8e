/**
 * Undo against the portal, without React: first the check (later events on each target — the
 * "changed since" flag — and, for transfers, the same canReassignItems pre-check the transfer
 * wizard runs), then the run, with a result per event. A failure of one never stops the others.
 */
import {
  describeError,
  getHistory,
  getItem,
  getWebhook,
  reassignGroup,
  removeGroupUsers,
  setContentStatus,
  setItemProtected,
  setRolePrivileges,
  setTaskEnabled,
  setUserDefaultSettings,
  deleteUserDefaultSettings,
  setWebhookActive,
  shareItem,
  unshareItem,
  updateGroupUsers,
  updateRole,
  updateUserRole,
  setMemberDisabled,
  updateWebhook,
  updateWebhookSettings,
  moveItem,
  fetchItemData,
  updateItem,
  type BlockedItem,
  type ContentStatus,
  type HistoryEvent,
} from '../../api/index.ts';
import { undoMemberJobToEnd, undoSummary } from '../../api/memberJobs.ts';
import { applyReplacements } from '../../../shared/references/replaced.ts';
import { precheck, runTransfer } from '../transfer.ts';
import { changedSince, type LaterChange, type UndoPlan, type UndoStep } from './undo.ts';

type Undoable = Extract<UndoPlan, { undoable: true }>;

export interface CheckedPlan {
  plan: Undoable;
  /** A later event changed what this one changed (or removed the target): run only when confirmed. */
  later?: LaterChange;
  /** The transfer pre-check refused the item (every reason, each with its fix). */
  blocked?: BlockedItem;
  /** The check itself failed (the reason). */
  error?: string;
}

/** The later events on one target, from the event on (at most 100: enough to see whether anything changed it). */
async function eventsSince(orgId: string, e: HistoryEvent): Promise<HistoryEvent[]> {
  const page = await getHistory(orgId, { id: e.id, types: [e.idType], fromDate: e.created, sortOrder: 'asc', num: 100 });
  return page.items;
}

const reassignOf = (p: Undoable) => p.steps.find((s): s is Extract<UndoStep, { kind: 'reassign' }> => s.kind === 'reassign');

/** Checks every plan; `onProgress` after each. */
export async function checkUndo(
  orgId: string,
  plans: readonly Undoable[],
  onProgress: (done: number, total: number) => void = () => {},
): Promise<CheckedPlan[]> {
  const out: CheckedPlan[] = plans.map((plan) => ({ plan }));
  let done = 0;
  const total = plans.length + 1;
  for (const c of out) {
    try {
      const later = changedSince(c.plan.event, await eventsSince(orgId, c.plan.event));
      if (later) c.later = later;
    } catch (err) {
      c.error = `The target's later history could not be read: ${describeError(err)}`;
    }
    onProgress(++done, total);
  }
  // Transfers: canReassignItems per (current owner → previous owner), 100 items a request.
  const byParties = new Map<string, CheckedPlan[]>();
  for (const c of out) {
    const r = reassignOf(c.plan);
    if (!r || c.later?.kind === 'gone') continue;
    const k = `${r.from}\u0000${r.to}`;
    byParties.set(k, [...(byParties.get(k) ?? []), c]);
  }
  for (const group of byParties.values()) {
    const r = reassignOf(group[0].plan)!;
    const outcomes = await precheck(
      r.from,
      group.map((c) => reassignOf(c.plan)!.itemId),
      r.to,
      () => {},
    );
    const byItem = new Map(outcomes.map((o) => [o.itemId, o]));
    for (const c of group) {
      const o = byItem.get(reassignOf(c.plan)!.itemId);
      if (o?.status === 'blocked') c.blocked = o.blocked;
      if (o?.status === 'error') c.error = o.message;
    }
  }
  onProgress(total, total);
  return out;
}

/** Ready to run without a question: checked, not blocked, not changed since. */
export const isReady = (c: CheckedPlan) => !c.blocked && !c.error && !c.later;

export interface UndoOutcome {
  key: string;
  ok: boolean;
  message?: string;
}

/** Runs the plans (each one's steps in order); transfers go together, 100 at a time, as the wizard sends them. */
export async function runUndo(orgId: string, plans: readonly Undoable[], onProgress: (done: number, total: number) => void = () => {}): Promise<UndoOutcome[]> {
  const results = new Map<string, UndoOutcome>();
  let done = 0;
  const tick = () => onProgress(++done, plans.length);

  const transfers = plans.filter((p) => p.steps.length === 1 && p.steps[0].kind === 'reassign');
  const groups = new Map<string, Undoable[]>();
  for (const p of transfers) {
    const r = reassignOf(p)!;
    const k = `${r.from}\u0000${r.to}\u0000${r.folderName}`;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  for (const group of groups.values()) {
    const r = reassignOf(group[0])!;
    const byItem = new Map<string, Undoable[]>();
    for (const p of group) byItem.set(reassignOf(p)!.itemId, [...(byItem.get(reassignOf(p)!.itemId) ?? []), p]);
    const outcomes = await runTransfer(r.from, [...byItem.keys()], r.to, r.folderName, () => {});
    for (const o of outcomes) {
      for (const p of byItem.get(o.itemId) ?? []) {
        const notes = [
          o.unsharedFrom.length ? `no longer shared with ${o.unsharedFrom.join(' and ')}` : '',
          o.tasksDeactivated ? `${o.tasksDeactivated} scheduled task(s) deactivated` : '',
        ]
          .filter(Boolean)
          .join('; ');
        results.set(p.key, { key: p.key, ok: o.ok, message: o.ok ? `Back with ${r.to}${notes ? `; ${notes}` : ''}` : o.message });
        tick();
      }
    }
  }

  for (const p of plans.filter((x) => !transfers.includes(x))) {
    try {
      // A step that reports its own outcome (a whole job put back) says it instead of the summary.
      const notes: string[] = [];
      for (const step of p.steps) {
        const note = await runStep(orgId, step);
        if (note) notes.push(note);
      }
      results.set(p.key, { key: p.key, ok: true, message: notes.length ? notes.join(' ') : p.summary.replace(/\.$/, '') + ': done.' });
    } catch (err) {
      results.set(p.key, { key: p.key, ok: false, message: describeError(err) });
    }
    tick();
  }
  return plans.map((p) => results.get(p.key) ?? { key: p.key, ok: false, message: 'Not run.' });
}

/** One compensating operation; items are addressed through their current owner. */
export async function runStep(orgId: string, step: UndoStep): Promise<string | void> {
  switch (step.kind) {
    case 'memberJob':
      return undoSummary(await undoMemberJobToEnd(orgId, step.jobId));
    case 'reassign': {
      const [o] = await runTransfer(step.from, [step.itemId], step.to, step.folderName, () => {});
      if (!o.ok) throw new Error(o.message ?? 'The item was not transferred back.');
      return;
    }
    case 'move': {
      const item = await getItem(step.itemId);
      await moveItem(item.owner, step.itemId, step.folder);
      return;
    }
    case 'share': {
      const item = await getItem(step.itemId);
      if (step.access !== null || step.addGroups.length) {
        const level = step.access === null ? {} : { everyone: step.access === 'public', org: step.access === 'org' };
        const answer = await shareItem(item.owner, step.itemId, { ...level, groups: step.addGroups });
        if (answer.notSharedWith?.length) throw new Error(`Not shared again with ${answer.notSharedWith.join(', ')}.`);
      }
      if (step.removeGroups.length) {
        const answer = await unshareItem(item.owner, step.itemId, step.removeGroups);
        if (answer.notUnsharedFrom?.length) throw new Error(`Still shared with ${answer.notUnsharedFrom.join(', ')}.`);
      }
      return;
    }
    case 'contentStatus':
      await setContentStatus(step.itemId, (step.status || null) as ContentStatus | null, { replacedBy: step.replacedBy });
      return;
    case 'protect': {
      const item = await getItem(step.itemId);
      await setItemProtected(item.owner, step.itemId, step.protect);
      return;
    }
    case 'privileges':
      await setRolePrivileges(orgId, step.roleId, step.privileges);
      return;
    case 'roleFields':
      await updateRole(orgId, step.roleId, { name: step.name, description: step.description });
      return;
    case 'userRole':
      await updateUserRole(orgId, { username: step.username, role: step.role });
      return;
    case 'userDisabled':
      await setMemberDisabled(step.username, step.disabled);
      return;
    case 'userDefaults': {
      // setUserDefaultSettings changes only what is sent: clear first, so unset defaults are unset again.
      await deleteUserDefaultSettings(orgId);
      const input = {
        role: step.role ?? undefined,
        userLicenseType: step.userLicenseType ?? undefined,
        userType: step.userType ?? undefined,
        groups: step.groups.length ? step.groups : undefined,
      };
      if (Object.values(input).some((v) => v !== undefined)) await setUserDefaultSettings(orgId, input);
      return;
    }
    case 'webhook': {
      const current = await getWebhook(orgId, step.webhookId);
      await updateWebhook(orgId, step.webhookId, {
        name: step.fields.name ?? current.name,
        url: step.fields.url ?? current.payloadUrl,
        events: step.fields.events ?? current.events,
        config: step.fields.config ?? current.config,
      });
      return;
    }
    case 'webhookActive':
      await setWebhookActive(orgId, step.webhookId, step.active);
      return;
    case 'webhookSettings':
      await updateWebhookSettings(orgId, step.settings);
      return;
    case 'removeGroupUsers': {
      const answer = await removeGroupUsers(step.groupId, step.usernames);
      if (answer.notRemoved?.length) throw new Error(`Not removed (no longer members?): ${answer.notRemoved.join(', ')}.`);
      return;
    }
    case 'reassignGroup':
      await reassignGroup(step.groupId, step.to);
      return;
    case 'groupMemberTypes': {
      const answer = await updateGroupUsers(step.groupId, { users: step.members, admins: step.admins });
      const failed = answer.results?.filter((r) => !r.success).map((r) => r.username) ?? [];
      if (failed.length) throw new Error(`Member type not changed for ${failed.join(', ')}.`);
      return;
    }
    case 'taskEnabled':
      await setTaskEnabled(step.owner, step.taskId, step.enabled);
      return;
    case 'replaceReferences': {
      // The data as it is now, not as it was: later edits elsewhere in it stay.
      const item = await getItem(step.itemId);
      const text = await (await fetchItemData(step.itemId)).blob.text();
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        throw new Error(`The data of '${step.title}' is no longer JSON: there are no references to put back.`);
      }
      const next = applyReplacements(item.type, data, step.swaps);
      if (JSON.stringify(next) === JSON.stringify(data)) throw new Error(`'${step.title}' no longer names what was put in: there is nothing to put back.`);
      await updateItem(item.owner, step.itemId, { text: JSON.stringify(next) });
      return;
    }
  }
}
