/**
 * Scheduled tasks: the member's own (and, for administrators, the organization's) with the schedule
 * in words, the next run in local time with UTC beside it, the last result and the state (with the
 * reason a task stopped). Pause, resume, run now, delete, edit; pause or resume several at once
 * with a result per task; the run history of each task.
 */
import { Anchor, Badge, Button, Drawer, Group, Menu, Modal, SegmentedControl, Stack, Table, Text, Tooltip, ActionIcon } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { TASK_TYPE_LABELS, type RunStatus, type TaskState } from '../../../shared/contract/tasks.ts';
import { describeSchedule, nextRun } from '../../../shared/cron.ts';
import { describeError, type TaskRecord } from '../../api/index.ts';
import { BulkProgress, BulkResultTable, type BulkResultRow } from '../../components/Bulk.tsx';
import { formatLocal, formatUtc } from '../../components/CronBuilder.tsx';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../components/DataTable.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { GuardedMenuItem } from '../../components/GuardedMenuItem.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { runBulk } from '../../api/index.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { HistoryDrawer, mayReadHistory, type HistoryTarget } from '../../components/HistorySection.tsx';
import { useReturnFocus } from '../../lib/focusReturn.ts';
import { useNarrowScreen } from '../../lib/narrow.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useTaskAction } from './mutations.ts';
import { seesOrganizationTasks } from './permissions.ts';
import { runsQuery, tasksQuery } from '../../api/queries/tasks.ts';
import { TaskFormModal } from './TaskFormModal.tsx';
import { useItemTitles } from './itemTitles.ts';
import { useRowSelection } from '../../components/useRowSelection.ts';

const STATE_COLORS: Record<TaskState, string> = { active: 'green', paused: 'gray', completed: 'blue', failed: 'red' };
const RUN_COLORS: Record<RunStatus, string> = { scheduled: 'gray', executing: 'blue', succeeded: 'green', failed: 'red', skipped: 'yellow' };

function scheduleWords(t: TaskRecord): string {
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

export default function TasksPage() {
  const user = useCurrentUser();
  const admin = seesOrganizationTasks(user);
  const [scope, setScope] = useState<'mine' | 'org'>('mine');
  const [start, setStart] = useState(1);
  const [num, setNum] = useState(25);
  const [sort, setSort] = useState<DataTableSort>({ field: 'created', order: 'desc' });
  const { selected, setSelected, selection } = useRowSelection<TaskRecord>((t) => `Select ${t.title || t.id}`);
  const [editing, setEditing] = useState<TaskRecord | 'new' | null>(null);
  const [history, setHistory] = useState<TaskRecord | null>(null);
  const [changes, setChanges] = useState<HistoryTarget | null>(null);
  // The history drawer, the edit dialog and the delete confirmation open from a row's menu: focus goes back to its button.
  const fromMenu = useReturnFocus();
  const [bulk, setBulk] = useState<{ label: string; done: number; total: number; rows?: BulkResultRow[] } | null>(null);
  const action = useTaskAction();
  const runNow = localOnly(usePortalCapabilities(), 'running a task on demand');
  const list = useQuery(
    tasksQuery(scope === 'org' && admin ? { orgId: user.orgId } : { username: user.username }, {
      start,
      num,
      sortField: sort.field as never,
      sortOrder: sort.order,
    }),
  );
  const rows = list.data?.tasks;
  const itemTitles = useItemTitles(rows);
  const narrow = useNarrowScreen();

  const act = (t: TaskRecord, what: 'enable' | 'disable' | 'delete' | 'run') =>
    action.mutate(
      { owner: t.userId, id: t.id, action: what },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message: { enable: 'Task resumed.', disable: 'Task paused.', delete: 'Task deleted.', run: 'Run started; see its history.' }[what],
          }),
        onError: (err) => notifications.show({ color: 'red', title: 'Not done', message: describeError(err) }),
      },
    );

  const confirmDelete = (t: TaskRecord) => {
    fromMenu.remember();
    modals.openConfirmModal({
      title: 'Delete task',
      children: <Text size="sm">Delete “{t.title || TASK_TYPE_LABELS[t.type]}” and its run history? This cannot be undone.</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => act(t, 'delete'),
      // Cancelled: back to the row's menu button (after a delete the row and its button are gone).
      onClose: fromMenu.restore,
    });
  };

  const runBulkToggle = async (enable: boolean) => {
    const targets = [...selected.values()];
    const label = enable ? 'Resuming tasks' : 'Pausing tasks';
    setBulk({ label, done: 0, total: targets.length });
    const outcomes = await runBulk(targets, (t) => action.mutateAsync({ owner: t.userId, id: t.id, action: enable ? 'enable' : 'disable' }), {
      concurrency: 3,
      onProgress: (done, total) => setBulk((b) => (b ? { ...b, done, total } : b)),
    });
    setBulk({
      label,
      done: targets.length,
      total: targets.length,
      rows: outcomes.map((o) => ({
        key: o.item.id,
        name: o.item.title || TASK_TYPE_LABELS[o.item.type],
        ok: o.ok,
        detail: o.ok ? (enable ? 'Resumed' : 'Paused') : describeError(o.error),
      })),
    });
    setSelected(new Map());
  };

  const columns: DataTableColumn<TaskRecord>[] = [
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
      render: (t) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            {/* On a phone the row is a card tapped with a finger: a 44 px target (WCAG 2.5.5), 28 px beside a mouse. */}
            <ActionIcon variant="subtle" size={narrow ? 'xl' : 'md'} aria-label={`Actions for ${t.title || t.id}`}>
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              onClick={() => {
                fromMenu.remember();
                setHistory(t);
              }}
            >
              Run history
            </Menu.Item>
            {mayReadHistory(user) ? (
              <Menu.Item
                onClick={() => {
                  fromMenu.remember();
                  setChanges({ id: t.id, type: 't', name: `the task “${t.title || t.id}”`, title: t.title || TASK_TYPE_LABELS[t.type] });
                }}
              >
                Change history
              </Menu.Item>
            ) : null}
            <Menu.Item
              onClick={() => {
                fromMenu.remember();
                setEditing(t);
              }}
            >
              Edit
            </Menu.Item>
            <GuardedMenuItem permission={runNow} onClick={() => act(t, 'run')}>
              Run now
            </GuardedMenuItem>
            {t.active ? <Menu.Item onClick={() => act(t, 'disable')}>Pause</Menu.Item> : <Menu.Item onClick={() => act(t, 'enable')}>Resume</Menu.Item>}
            {/* The menu's own colour: Mantine's red on white is 3.3:1, under WCAG's 4.5:1 (the dialog's button says it). */}
            <Menu.Item onClick={() => confirmDelete(t)}>Delete</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Scheduled tasks"
        description="Reports, notebooks, geoprocessing and other work run on a schedule. Schedules are in UTC; times are shown in your time with UTC beside them."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New task
          </Button>
        }
      />
      <Group justify="space-between" mb="sm" wrap="wrap">
        {admin ? (
          <SegmentedControl
            aria-label="Whose tasks"
            value={scope}
            onChange={(v) => {
              setScope(v);
              setStart(1);
              setSelected(new Map());
            }}
            data={[
              { value: 'mine', label: 'My tasks' },
              { value: 'org', label: 'Organization' },
            ]}
          />
        ) : (
          <span />
        )}
        <Group gap="xs">
          {list.data && 'activeTasksAvailable' in list.data ? (
            <Text size="sm" c="dimmed">
              {(list.data as { activeTasksAvailable: number }).activeTasksAvailable} more active tasks allowed
            </Text>
          ) : null}
          <Button variant="default" disabled={!selected.size} onClick={() => runBulkToggle(false)}>
            Pause selected
          </Button>
          <Button variant="default" disabled={!selected.size} onClick={() => runBulkToggle(true)}>
            Resume selected
          </Button>
        </Group>
      </Group>
      <DataTable
        label="Scheduled tasks"
        itemName="tasks"
        columns={columns}
        rows={rows}
        rowKey={(t) => t.id}
        sort={sort}
        onSortChange={setSort}
        paging={list.data ? { start, num, total: list.data.total } : undefined}
        onPageChange={setStart}
        onPageSizeChange={(n) => {
          setNum(n);
          setStart(1);
        }}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => list.refetch()}
        minWidth={960}
        empty={<EmptyPanel title="No scheduled tasks" description="Create one to run a report or other work on a schedule." />}
        selection={selection}
      />
      <TaskFormModal
        opened={editing !== null}
        onClose={() => {
          setEditing(null);
          fromMenu.restore();
        }}
        task={editing && editing !== 'new' ? editing : undefined}
      />
      <Drawer
        opened={!!history}
        onClose={() => {
          setHistory(null);
          fromMenu.restore();
        }}
        position="right"
        size="xl"
        title={history ? `Run history: ${history.title || TASK_TYPE_LABELS[history.type]}` : ''}
      >
        {history ? <RunHistory task={history} /> : null}
      </Drawer>
      <HistoryDrawer
        target={changes}
        onClose={() => {
          setChanges(null);
          fromMenu.restore();
        }}
      />
      <Modal opened={!!bulk} onClose={() => bulk?.rows && setBulk(null)} title={bulk?.label ?? ''} size="lg" centered>
        {bulk ? (
          bulk.rows ? (
            <BulkResultTable label={`${bulk.label}: results`} rows={bulk.rows} nameHeader="Task" />
          ) : (
            <BulkProgress label={bulk.label} done={bulk.done} total={bulk.total} />
          )
        ) : null}
      </Modal>
    </>
  );
}

function RunHistory({ task }: { task: TaskRecord }) {
  const runs = useQuery(runsQuery(task.userId, task.id));
  if (runs.isPending) return <LoadingState label="Loading runs…" />;
  if (runs.isError) return <ErrorState error={runs.error} title="Runs could not be loaded" onRetry={() => runs.refetch()} />;
  if (!runs.data.runs.length)
    return (
      <EmptyPanel
        title="No runs yet"
        description={nextRunOf(task) ? `The first run is due ${formatLocal(nextRunOf(task)!)} (${formatUtc(nextRunOf(task)!)}).` : undefined}
      />
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The latest runs, newest first. Times in your time zone, UTC below.
      </Text>
      <Table aria-label="Runs" verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Scheduled</Table.Th>
            <Table.Th w={110}>Status</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Finished</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.data.runs.map((r) => (
            <Table.Tr key={r.runId}>
              <Table.Td>
                <WhenCell ms={r.scheduled} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }} miw={100}>
                <Badge color={RUN_COLORS[r.status]} variant="light" tt="none" style={{ overflow: 'visible' }}>
                  {r.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <WhenCell ms={r.started} />
              </Table.Td>
              <Table.Td>
                <WhenCell ms={r.finished} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {r.result || '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
