/**
 * The state of the scheduled tasks page: whose tasks, paging and sort, the ticked rows, which
 * dialog or drawer is open (focus goes back to the row's menu button when it closes), and the
 * actions on one task or on the ticked ones with a result per task.
 */
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TASK_TYPE_LABELS } from '../../../shared/contract/tasks.ts';
import { describeError, runBulk, type TaskRecord } from '../../api/index.ts';
import { tasksQuery } from '../../api/queries/tasks.ts';
import type { BulkResultRow } from '../../components/Bulk.tsx';
import type { DataTableSort } from '../../components/DataTable.tsx';
import type { HistoryTarget } from '../../components/HistorySection.tsx';
import { useRowSelection } from '../../components/useRowSelection.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useReturnFocus } from '../../lib/focusReturn.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useItemTitles } from './itemTitles.ts';
import { useTaskAction } from './mutations.ts';
import { seesOrganizationTasks } from './permissions.ts';

export type TaskAction = 'enable' | 'disable' | 'delete' | 'run';
export type BulkState = { label: string; done: number; total: number; rows?: BulkResultRow[] };

export function useTasksPage() {
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
  const [bulk, setBulk] = useState<BulkState | null>(null);
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

  const act = (t: TaskRecord, what: TaskAction) =>
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

  /** Opens a dialog or drawer from a row's menu, so that closing it puts focus back on the menu button. */
  const openFromMenu = (open: () => void) => {
    fromMenu.remember();
    open();
  };
  /** Closes it and puts focus back. */
  const closeToMenu = (close: () => void) => {
    close();
    fromMenu.restore();
  };

  return {
    user,
    admin,
    scope,
    changeScope: (value: 'mine' | 'org') => {
      setScope(value);
      setStart(1);
      setSelected(new Map());
    },
    start,
    setStart,
    num,
    changePageSize: (n: number) => {
      setNum(n);
      setStart(1);
    },
    sort,
    setSort,
    selected,
    selection,
    editing,
    setEditing,
    history,
    setHistory,
    changes,
    setChanges,
    openFromMenu,
    closeToMenu,
    bulk,
    setBulk,
    runNow,
    list,
    rows,
    itemTitles,
    act,
    confirmDelete,
    runBulkToggle,
  };
}
