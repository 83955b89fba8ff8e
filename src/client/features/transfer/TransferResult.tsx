/** The transfer wizard's last step: a summary, a result per item, and the side effects (tasks paused, sharing narrowed). */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { BulkResultTable } from '../../components/Bulk.tsx';
import { plural } from '../../lib/format.ts';
import type { RunOutcome } from '../../lib/transfer.ts';

export interface TransferResultsProps {
  outcomes: RunOutcome[];
  target: string;
  /** The folder the run moved the items to. */
  folder: string;
  titleOf: (id: string) => string;
  /** Where the wizard was opened from. */
  back: { to: string; label: string };
  /** Sends the failed items again (absent when none failed). */
  onRetry?: () => void;
  /** Back to the new owner and folder (then the pre-check), to change what made items fail. */
  onChange: () => void;
}

export function TransferResults({ outcomes, target, folder, titleOf, back, onRetry, onChange }: TransferResultsProps) {
  const failed = outcomes.filter((o) => !o.ok).length;
  return (
    <Stack gap="md">
      <TransferSummary outcomes={outcomes} target={target} folder={folder} />
      <BulkResultTable
        label="Transfer results"
        nameHeader="Item"
        successLabel="Transferred"
        failureLabel="Failed"
        rows={outcomes.map((o) => ({ key: o.itemId, name: titleOf(o.itemId), ok: o.ok, detail: o.ok ? sideEffects(o) : o.message }))}
      />
      <Group justify="space-between">
        <Button component={Link} to={back.to} variant="default">
          Back to {back.label}
        </Button>
        {onRetry ? (
          <Group gap="sm">
            <Button variant="default" onClick={onChange}>
              Change owner or folder
            </Button>
            <Button color="orange" onClick={onRetry}>
              Retry failed ({failed})
            </Button>
          </Group>
        ) : null}
      </Group>
    </Stack>
  );
}

function sideEffects(o: RunOutcome): string {
  const notes: string[] = [];
  if (o.tasksDeactivated) notes.push(`${plural(o.tasksDeactivated, 'scheduled task')} paused`);
  if (o.unsharedFrom.length) notes.push(`no longer shared with ${o.unsharedFrom.join(' and ')}`);
  return notes.join('; ');
}

export function TransferSummary({ outcomes, target, folder }: { outcomes: RunOutcome[]; target: string; folder: string }) {
  const moved = outcomes.filter((o) => o.ok);
  const tasks = moved.reduce((n, o) => n + o.tasksDeactivated, 0);
  const narrowed = moved.filter((o) => o.unsharedFrom.length).length;
  return (
    <Alert color={moved.length === outcomes.length ? 'green' : 'yellow'} variant="light" title="Summary" role="status">
      <Stack gap={4}>
        <Text size="sm">
          {moved.length} of {plural(outcomes.length, 'item')} now {moved.length === 1 ? 'belongs' : 'belong'} to {target}, in{' '}
          {folder === '/' ? 'the root folder' : `the folder “${folder}”`}.
        </Text>
        <Text size="sm" data-testid="tasks-deactivated">
          Scheduled tasks paused: {tasks}
          {tasks ? ` — ${target} must review and resume them.` : ''}
        </Text>
        {narrowed ? (
          <Text size="sm">
            {plural(narrowed, 'item')} shared more widely than {target} may share {narrowed === 1 ? 'was' : 'were'} narrowed.
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
