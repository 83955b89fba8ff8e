/**
 * Undo of history events (Activity and every History section): the compensating operations of each
 * selected event, then the check — later changes to the same target ("changed since": unchecked by
 * default, and said so), and for transfers the same canReassignItems pre-check as the transfer
 * wizard, every blocker with its fix (Run stays disabled while a selected transfer is blocked) — and
 * only then the run, with progress and one result per event: success or the portal's reason.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { HistoryEvent } from '../api/index.ts';
import { describeEvent } from '../lib/history/describe.ts';
import type { UndoOutcome } from '../lib/history/run.ts';
import { BulkProgress, BulkResultTable } from './Bulk.tsx';
import { UndoPlanTable } from './UndoPlanTable.tsx';
import { UndoTransferChecks } from './UndoTransferChecks.tsx';
import { useUndo } from './useUndo.ts';

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
  const { names, undoable, refused, check, checkProgress, checked, included, chosen, blocked, toggle, run, runProgress, titleOfEvent } = useUndo({
    events,
    onRan,
    onRunning,
  });
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
          <UndoPlanTable checked={checked ?? []} included={included} onToggle={toggle} names={names} />
          <UndoTransferChecks checked={checked ?? []} />
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
