/** The columns of the scheduled tasks table; the actions column shows the row's menu. */
import { Anchor, Badge, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TASK_TYPE_LABELS } from '../../../shared/contract/tasks.ts';
import type { TaskRecord } from '../../api/index.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { nextRunOf, RUN_COLORS, scheduleWords, STATE_COLORS, WhenCell } from './taskDisplay.tsx';

export function taskColumns({
  scope,
  itemTitles,
  menu,
}: {
  scope: 'mine' | 'org';
  itemTitles: ReadonlyMap<string, string>;
  menu: (t: TaskRecord) => ReactNode;
}): DataTableColumn<TaskRecord>[] {
  return [
    {
      id: 'title',
      header: 'Task',
      stackFirst: true,
      sortField: 'title',
      render: (t) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {t.title || TASK_TYPE_LABELS[t.type]}
          </Text>
          <Text size="xs" c="dimmed">
            {TASK_TYPE_LABELS[t.type]}
            {scope === 'org' ? ` · ${t.userId}` : ''}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'item',
      header: 'Item',
      width: 100,
      render: (t) =>
        t.itemId && itemTitles.get(t.itemId) ? (
          <Anchor component={Link} to={`/content/items/${t.itemId}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {itemTitles.get(t.itemId)}
          </Anchor>
        ) : t.itemId ? (
          // Not readable by this member (or not found): the id, in full on hover.
          <Tooltip label={t.itemId}>
            <Text size="xs" ff="monospace">
              {t.itemId.slice(0, 8)}…
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    { id: 'schedule', header: 'Schedule', render: (t) => <Text size="sm">{scheduleWords(t)}</Text> },
    { id: 'next', header: 'Next run', sortField: 'nextRun', render: (t) => <WhenCell ms={nextRunOf(t)} /> },
    {
      id: 'last',
      header: 'Last result',
      width: 140,
      render: (t) =>
        t.lastRunStatus ? (
          <Tooltip label={t.lastRunResult ?? ''} multiline w={320} disabled={!t.lastRunResult}>
            <Badge color={RUN_COLORS[t.lastRunStatus]} variant="light" tt="none">
              {t.lastRunStatus}
            </Badge>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            No run yet
          </Text>
        ),
    },
    {
      id: 'state',
      header: 'State',
      stackFirst: true,
      width: 170,
      render: (t) => (
        <Stack gap={2}>
          <Badge color={STATE_COLORS[t.taskState]} variant="light" tt="none">
            {t.taskState}
          </Badge>
          {t.stateReason ? (
            <Text size="xs" c="dimmed" maw={240}>
              {t.stateReason}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      width: 80,
      align: 'right',
      render: menu,
    },
  ];
}
