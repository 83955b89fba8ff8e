/**
 * The state of an undo: the plans of the chosen events (named as the history list names them), the
 * check of later changes and of transfers with its progress, which checked events are included, and
 * the run with its progress, refetching what each kind of step changed.
 */
import { useMutation, useQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { HistoryEvent } from '../api/index.ts';
import { describeEvent } from '../lib/history/describe.ts';
import { checkUndo, runUndo } from '../lib/history/run.ts';
import { useHistoryNames } from '../lib/history/names.ts';
import { planUndoNamed, type UndoPlan, type UndoStep } from '../lib/history/undo.ts';
import { useCurrentUser } from '../lib/session.ts';
import { historyKeys } from '../api/queries/history.ts';
import { taskKeys } from '../api/queries/tasks.ts';
import { webhookKeys } from '../api/queries/webhooks.ts';
import { itemKeys } from '../api/queries/items.ts';
import { groupKeys } from '../api/queries/groups.ts';
import { userKeys } from '../api/queries/users.ts';
import { roleKeys } from '../api/queries/roles.ts';
import { userDefaultSettingsKeys } from '../api/queries/userDefaultSettings.ts';
import { verdictOf } from './undoVerdict.ts';

type Undoable = Extract<UndoPlan, { undoable: true }>;

/** What to refetch after the steps ran: the lists and objects each kind of step changes, and history. */
function keysFor(steps: readonly UndoStep[], orgId: string): QueryKey[] {
  const keys: QueryKey[] = [historyKeys.all];
  for (const s of steps) {
    if (['reassign', 'move', 'share', 'contentStatus', 'protect'].includes(s.kind)) keys.push(itemKeys.all);
    if (s.kind === 'reassign') keys.push(userKeys.members(orgId));
    if (s.kind === 'privileges' || s.kind === 'roleFields') keys.push(roleKeys.all(orgId));
    if (s.kind === 'userRole') keys.push(userKeys.members(orgId), roleKeys.all(orgId));
    if (s.kind === 'userDisabled') keys.push(userKeys.members(orgId));
    if (s.kind === 'userDefaults') keys.push(userDefaultSettingsKeys.of(orgId));
    if (s.kind === 'webhook' || s.kind === 'webhookActive' || s.kind === 'webhookSettings') keys.push(webhookKeys.all(orgId));
    if (s.kind === 'removeGroupUsers' || s.kind === 'groupMemberTypes') keys.push(groupKeys.all);
    if (s.kind === 'taskEnabled') keys.push(taskKeys.all);
    if (s.kind === 'memberJob') keys.push(userKeys.members(orgId), groupKeys.all, roleKeys.all(orgId));
  }
  return keys;
}

export function useUndo({
  events,
  onRan,
  onRunning,
}: {
  events: readonly HistoryEvent[];
  onRan: (counts: { undone: number; tried: number }) => void;
  onRunning: (running: boolean) => void;
}) {
  const user = useCurrentUser();
  // Items, members and groups by name, as the list behind the dialog says them (never raw ids).
  const names = useHistoryNames(events);
  const plans = useMemo(() => events.map((e) => planUndoNamed(e, names)), [events, names]);
  const undoable = useMemo(() => plans.filter((p): p is Undoable => p.undoable), [plans]);
  const refused = plans.filter((p) => !p.undoable);
  const [checkProgress, setCheckProgress] = useState({ done: 0, total: undoable.length + 1 });
  const check = useQuery({
    queryKey: historyKeys.undoCheck(
      user.orgId,
      undoable.map((p) => p.key),
    ),
    queryFn: () => checkUndo(user.orgId, undoable, (done, total) => setCheckProgress({ done, total })),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
  // null until the administrator changes it: ready and blocked events are in, changed-since and gone ones out.
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const checked = check.data;
  const included = picked ?? new Set((checked ?? []).filter((c) => ['ready', 'blocked'].includes(verdictOf(c))).map((c) => c.plan.key));
  const chosen = (checked ?? []).filter((c) => included.has(c.plan.key));
  const blocked = chosen.filter((c) => verdictOf(c) === 'blocked');
  const toggle = (key: string, on: boolean) => {
    const next = new Set(included);
    if (on) next.add(key);
    else next.delete(key);
    setPicked(next);
  };

  const [runProgress, setRunProgress] = useState({ done: 0, total: 0 });
  const run = useMutation({
    mutationFn: (list: Undoable[]) => {
      setRunProgress({ done: 0, total: list.length });
      return runUndo(user.orgId, list, (done, total) => setRunProgress({ done, total }));
    },
    onMutate: () => onRunning(true),
    onSettled: () => onRunning(false),
    meta: {
      invalidates: (list: Undoable[]) =>
        keysFor(
          list.flatMap((p) => p.steps),
          user.orgId,
        ),
    },
    onSuccess: (outcomes) => onRan({ undone: outcomes.filter((o) => o.ok).length, tried: outcomes.length }),
  });

  const titleOfEvent = new Map(undoable.map((p) => [p.key, describeEvent(p.event, names)]));
  return { names, undoable, refused, check, checkProgress, checked, included, chosen, blocked, toggle, run, runProgress, titleOfEvent };
}
