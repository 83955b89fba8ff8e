/**
 * Undo of history events (Activity and every History section): the compensating operations of each
 * selected event, then the check — later changes to the same target ("changed since": unchecked by
 * default, and said so), and for transfers the same canReassignItems pre-check as the transfer
 * wizard, every blocker with its fix (Run stays disabled while a selected transfer is blocked) — and
 * only then the run, with progress and one result per event: success or the portal's reason.
 */
import { Alert, Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { HistoryEvent } from '../api/index.ts';
import { formatDateTime } from '../lib/format.ts';
import { describeEvent, type Names } from '../lib/history/describe.ts';
import { checkUndo, isReady, runUndo, type CheckedPlan, type UndoOutcome } from '../lib/history/run.ts';
import { useHistoryNames } from '../lib/history/names.ts';
import { planUndoNamed, type UndoPlan, type UndoStep } from '../lib/history/undo.ts';
import { useCurrentUser } from '../lib/session.ts';
import type { CheckOutcome } from '../lib/transfer.ts';
import { BulkProgress, BulkResultTable } from './Bulk.tsx';
import { CheckResults } from './CheckResults.tsx';
import { historyKeys } from '../api/queries/history.ts';
import { taskKeys } from '../api/queries/tasks.ts';
import { webhookKeys } from '../api/queries/webhooks.ts';
import { itemKeys } from '../api/queries/items.ts';
import { groupKeys } from '../api/queries/groups.ts';
import { userKeys } from '../api/queries/users.ts';
import { roleKeys } from '../api/queries/roles.ts';
import { userDefaultSettingsKeys } from '../api/queries/userDefaultSettings.ts';

export interface UndoDialogProps {
  opened: boolean;
  events: readonly HistoryEvent[];
  /** `finished`: the undo ran (the selection has served its purpose). */
  onClose: (finished: boolean) => void;
}

export function UndoDialog({ opened, events, onClose }: UndoDialogProps) {
  // After the run, the title counts the rows shown (the changes that ran), not the ones first chosen.
  const [ran, setRan] = useState<{ undone: number; tried: number } | null>(null);
  // While the undo runs the dialog stays open: its results are the only report of what was done.
  const [running, setRunning] = useState(false);
  const count = `${events.length} change${events.length === 1 ? '' : 's'}`;
  const close = () => {
    if (running) return;
    onClose(ran !== null);
    setRan(null);
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={ran ? `Undo results: ${ran.undone} of ${ran.tried} change${ran.tried === 1 ? '' : 's'} undone` : `Undo ${count}`}
      size="80rem"
      centered
      closeOnEscape={!running}
      closeOnClickOutside={!running}
      withCloseButton={!running}
    >
      {opened ? <Undo events={events} onRan={setRan} onRunning={setRunning} onClose={close} /> : null}
    </Modal>
  );
}

type Undoable = Extract<UndoPlan, { undoable: true }>;
type Verdict = 'ready' | 'changed' | 'gone' | 'blocked' | 'error';

const verdictOf = (c: CheckedPlan): Verdict =>
  isReady(c) ? 'ready' : c.later?.kind === 'gone' ? 'gone' : c.error ? 'error' : c.blocked ? 'blocked' : 'changed';

const VERDICT_BADGE: Record<Verdict, { label: string; color: string }> = {
  ready: { label: 'Ready', color: 'green' },
  changed: { label: 'Changed since', color: 'yellow' },
  gone: { label: 'Cannot be undone', color: 'red' },
  blocked: { label: 'Blocked', color: 'red' },
  error: { label: 'Cannot be undone', color: 'red' },
};

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

function Undo({
  events,
  onRan,
  onRunning,
  onClose,
}: {
  events: readonly HistoryEvent[];
  onRan: (counts: { undone: number; tried: number }) => void;
  onRunning: (running: boolean) => void;
  onClose: () => void;
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
  if (run.isPending) return <BulkProgress label="Undoing changes" done={runProgress.done} total={runProgress.total} autoFocus />;
  if (run.data) return <UndoResults outcomes={run.data} nameOf={(k) => titleOfEvent.get(k) ?? k} onClose={onClose} />;

  return (
    <Stack gap="md">
      <Text size="sm">
        Each change is put back with the portal’s ordinary operations, so every undo is itself recorded in history. Nothing runs until you choose{' '}
        <strong>Undo</strong>.
      </Text>
      {refused.length ? (
        <Alert color="gray" variant="light" title={`${refused.length} change${refused.length === 1 ? '' : 's'} without undo`}>
          <Stack gap={4}>
            {refused.map((p) => (
              <Text size="sm" key={p.key}>
                {describeEvent(p.event, names)}: {p.undoable ? '' : p.reason}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {check.isPending ? (
        <BulkProgress label="Checking later changes and the transfer pre-check" done={checkProgress.done} total={checkProgress.total} />
      ) : check.error ? (
        <Alert color="red" variant="light" role="alert" title="The check failed">
          {check.error instanceof Error ? check.error.message : 'The portal did not answer.'}
        </Alert>
      ) : (
        <>
          <PlanTable checked={checked ?? []} included={included} onToggle={toggle} names={names} />
          <TransferChecks checked={checked ?? []} />
          {blocked.length ? (
            <Alert color="red" variant="light" role="alert" title={`${blocked.length} selected transfer${blocked.length === 1 ? ' is' : 's are'} blocked`}>
              Fix each blocker (the Fix column says how), then choose Check again — or leave the blocked change{blocked.length === 1 ? '' : 's'} out.
            </Alert>
          ) : null}
        </>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="default" onClick={() => void check.refetch()} disabled={check.isFetching || !undoable.length}>
          Check again
        </Button>
        <Button
          onClick={() => run.mutate(chosen.map((c) => c.plan))}
          disabled={check.isFetching || !checked || !chosen.length || blocked.length > 0}
          aria-describedby={blocked.length ? 'undo-blocked-note' : undefined}
        >
          Undo {chosen.length} change{chosen.length === 1 ? '' : 's'}
        </Button>
      </Group>
      {blocked.length ? (
        <Text id="undo-blocked-note" size="xs" c="dimmed" ta="right">
          Undo is disabled while a selected transfer is blocked.
        </Text>
      ) : null}
    </Stack>
  );
}

/** One row per undoable event: include it or not, what it changed, what undo will do, and the check's verdict. */
function PlanTable({
  checked,
  included,
  onToggle,
  names,
}: {
  checked: CheckedPlan[];
  included: Set<string>;
  onToggle: (key: string, on: boolean) => void;
  names: Names;
}) {
  return (
    <ScrollArea.Autosize mah={420} type="auto">
      <Table aria-label="Changes to undo" verticalSpacing={6} striped stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>Undo</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>Compensating operations</Table.Th>
            <Table.Th>Check</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checked.map((c) => {
            const verdict = verdictOf(c);
            const said = describeEvent(c.plan.event, names);
            const runnable = verdict !== 'gone' && verdict !== 'error';
            return (
              <Table.Tr key={c.plan.key} data-verdict={verdict}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Undo: ${said}`}
                    checked={runnable && included.has(c.plan.key)}
                    disabled={!runnable}
                    onChange={(e) => onToggle(c.plan.key, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{said}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(c.plan.event.created)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{c.plan.summary}</Text>
                  {c.plan.note ? (
                    <Text size="xs" c="dimmed">
                      {c.plan.note}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" tt="none" color={VERDICT_BADGE[verdict].color} style={{ overflow: 'visible' }}>
                    {VERDICT_BADGE[verdict].label}
                  </Badge>
                  <Text size="xs" mt={2}>
                    {verdictText(c, verdict)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function verdictText(c: CheckedPlan, verdict: Verdict): string {
  switch (verdict) {
    case 'ready':
      return 'Nothing changed it since.';
    case 'changed':
      return `Changed afterwards (${c.later?.description ?? 'a later change'}): left out so that later change is not overwritten. Tick it to undo anyway.`;
    case 'gone':
      return `The object is gone (${c.later?.description ?? 'deleted'}): nothing will be changed.`;
    case 'blocked':
      return 'The pre-check refused the transfer back: see the blockers below.';
    case 'error':
      return `${c.error ?? 'The check failed.'} Nothing will be changed.`;
  }
}

/** The transfers' pre-check (canReassignItems), one table per previous owner, as the transfer wizard shows it. */
function TransferChecks({ checked }: { checked: CheckedPlan[] }) {
  const byTarget = new Map<string, { outcomes: CheckOutcome[]; titles: Map<string, string> }>();
  for (const c of checked) {
    const step = c.plan.steps.find((s) => s.kind === 'reassign');
    if (!step || c.later?.kind === 'gone') continue;
    const entry = byTarget.get(step.to) ?? { outcomes: [], titles: new Map<string, string>() };
    entry.titles.set(step.itemId, step.title);
    entry.outcomes.push(
      c.blocked
        ? { itemId: step.itemId, status: 'blocked', blocked: c.blocked }
        : c.error
          ? { itemId: step.itemId, status: 'error', message: c.error }
          : { itemId: step.itemId, status: 'ok' },
    );
    byTarget.set(step.to, entry);
  }
  if (!byTarget.size) return null;
  return (
    <Stack gap="sm">
      {[...byTarget].map(([target, { outcomes, titles }]) => (
        <Stack gap={6} key={target}>
          <Title order={3} size="h5">
            Transfer pre-check: back to {target}
          </Title>
          <CheckResults outcomes={outcomes} titleOf={(id) => titles.get(id) ?? id} target={target} />
        </Stack>
      ))}
    </Stack>
  );
}

/** One result per event, failures first with the portal's reason; the summary is spoken by the announcer. */
function UndoResults({ outcomes, nameOf, onClose }: { outcomes: UndoOutcome[]; nameOf: (key: string) => string; onClose: () => void }) {
  return (
    <Stack gap="md">
      <BulkResultTable
        label="Undo results"
        nameHeader="Change"
        successLabel="Undone"
        failureLabel="Not undone"
        autoFocus
        rows={outcomes.map((o) => ({ key: o.key, name: nameOf(o.key), ok: o.ok, detail: o.message }))}
      />
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}
