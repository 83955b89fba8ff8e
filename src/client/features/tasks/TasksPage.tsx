/**
 * Scheduled tasks: the member's own (and, for administrators, the organization's) with the schedule
 * in words, the next run in local time with UTC beside it, the last result and the state (with the
 * reason a task stopped). Pause, resume, run now, delete, edit; pause or resume several at once
 * with a result per task; the run history of each task. The state lives in useTasksPage.
 */
import { Button, Drawer, Group, SegmentedControl, Text } from '@mantine/core';
import { TASK_TYPE_LABELS } from '../../../shared/contract/tasks.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { HistoryDrawer, mayReadHistory } from '../../components/HistorySection.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { RunHistory } from './RunHistory.tsx';
import { TaskBulkModal } from './TaskBulkModal.tsx';
import { taskColumns } from './taskColumns.tsx';
import { TaskFormModal } from './TaskFormModal.tsx';
import { TaskRowMenu } from './TaskRowMenu.tsx';
import { useTasksPage } from './useTasksPage.tsx';

export default function TasksPage() {
  const page = useTasksPage();
  const { user, list, selected, history, editing, openFromMenu, closeToMenu } = page;

  const columns = taskColumns({
    scope: page.scope,
    itemTitles: page.itemTitles,
    menu: (t) => (
      <TaskRowMenu
        task={t}
        runNow={page.runNow}
        onRunHistory={() => openFromMenu(() => page.setHistory(t))}
        onChangeHistory={
          mayReadHistory(user)
            ? () =>
                openFromMenu(() => page.setChanges({ id: t.id, type: 't', name: `the task “${t.title || t.id}”`, title: t.title || TASK_TYPE_LABELS[t.type] }))
            : undefined
        }
        onEdit={() => openFromMenu(() => page.setEditing(t))}
        onAct={(what) => page.act(t, what)}
        onDelete={() => page.confirmDelete(t)}
      />
    ),
  });

  return (
    <>
      <PageHeader
        title="Scheduled tasks"
        description="Reports, notebooks, geoprocessing and other work run on a schedule. Schedules are in UTC; times are shown in your time with UTC beside them."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => page.setEditing('new')}>
            New task
          </Button>
        }
      />
      <Group justify="space-between" mb="sm" wrap="wrap">
        {page.admin ? (
          <SegmentedControl
            aria-label="Whose tasks"
            value={page.scope}
            onChange={page.changeScope}
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
          <Button variant="default" disabled={!selected.size} onClick={() => page.runBulkToggle(false)}>
            Pause selected
          </Button>
          <Button variant="default" disabled={!selected.size} onClick={() => page.runBulkToggle(true)}>
            Resume selected
          </Button>
        </Group>
      </Group>
      <DataTable
        label="Scheduled tasks"
        itemName="tasks"
        columns={columns}
        rows={page.rows}
        rowKey={(t) => t.id}
        sort={page.sort}
        onSortChange={page.setSort}
        paging={list.data ? { start: page.start, num: page.num, total: list.data.total } : undefined}
        onPageChange={page.setStart}
        onPageSizeChange={page.changePageSize}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => list.refetch()}
        minWidth={960}
        empty={<EmptyPanel title="No scheduled tasks" description="Create one to run a report or other work on a schedule." />}
        selection={page.selection}
      />
      <TaskFormModal
        opened={editing !== null}
        onClose={() => closeToMenu(() => page.setEditing(null))}
        task={editing && editing !== 'new' ? editing : undefined}
      />
      <Drawer
        opened={!!history}
        onClose={() => closeToMenu(() => page.setHistory(null))}
        position="right"
        size="xl"
        title={history ? `Run history: ${history.title || TASK_TYPE_LABELS[history.type]}` : ''}
      >
        {history ? <RunHistory task={history} /> : null}
      </Drawer>
      <HistoryDrawer target={page.changes} onClose={() => closeToMenu(() => page.setChanges(null))} />
      <TaskBulkModal bulk={page.bulk} onClose={() => page.setBulk(null)} />
    </>
  );
}
