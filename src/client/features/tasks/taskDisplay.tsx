/** How a task's schedule, times and states read in the tasks page, its run history and the task form. */
import { Stack, Text } from '@mantine/core';
import type { RunStatus, TaskState } from '../../../shared/contract/tasks.ts';
import { nextRun } from '../../../shared/cron.ts';
import { describeSchedule } from '../../../shared/cronWords.ts';
import type { TaskRecord } from '../../api/index.ts';
import { formatLocal, formatUtc } from '../../components/cronSchedule.ts';

export const STATE_COLORS: Record<TaskState, string> = { active: 'green', paused: 'gray', completed: 'blue', failed: 'red' };
export const RUN_COLORS: Record<RunStatus, string> = { scheduled: 'gray', executing: 'blue', succeeded: 'green', failed: 'red', skipped: 'yellow' };

export function scheduleWords(t: TaskRecord): string {
  try {
    return `${describeSchedule(t.cronSchedule)} (UTC)`;
  } catch {
    return Object.values(t.cronSchedule).join(' ');
  }
}

/**
 * The next run: the portal's `nextRun` (a local extra), else worked out from the schedule — an
 * active task's next time within its window (the shared cron module is the one the scheduler uses).
 */
export function nextRunOf(t: TaskRecord, now = Date.now()): number | null {
  if (t.nextRun !== undefined) return t.nextRun;
  if (!t.active) return null;
  try {
    return nextRun(t.cronSchedule, now, { startDate: t.startDate, endDate: t.endDate });
  } catch {
    return null;
  }
}

export function WhenCell({ ms }: { ms: number | null }) {
  if (ms === null)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text size="sm">{formatLocal(ms)}</Text>
      <Text size="xs" c="dimmed">
        {formatUtc(ms)}
      </Text>
    </Stack>
  );
}
