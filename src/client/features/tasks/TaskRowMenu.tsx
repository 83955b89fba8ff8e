/** A task row's actions menu: its histories, edit, run now, pause or resume, delete. */
import { ActionIcon, Menu } from '@mantine/core';
import type { TaskRecord } from '../../api/index.ts';
import { GuardedMenuItem } from '../../components/GuardedMenuItem.tsx';
import type { Permission } from '../../lib/privileges.ts';
import { useNarrowScreen } from '../../lib/narrow.ts';
import type { TaskAction } from './useTasksPage.tsx';

export function TaskRowMenu({
  task: t,
  runNow,
  onRunHistory,
  onChangeHistory,
  onEdit,
  onAct,
  onDelete,
}: {
  task: TaskRecord;
  runNow: Permission;
  onRunHistory: () => void;
  /** Absent when the member may not read change history. */
  onChangeHistory?: () => void;
  onEdit: () => void;
  onAct: (what: Exclude<TaskAction, 'delete'>) => void;
  onDelete: () => void;
}) {
  const narrow = useNarrowScreen();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* On a phone the row is a card tapped with a finger: a 44 px target (WCAG 2.5.5), 28 px beside a mouse. */}
        <ActionIcon variant="subtle" size={narrow ? 'xl' : 'md'} aria-label={`Actions for ${t.title || t.id}`}>
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRunHistory}>Run history</Menu.Item>
        {onChangeHistory ? <Menu.Item onClick={onChangeHistory}>Change history</Menu.Item> : null}
        <Menu.Item onClick={onEdit}>Edit</Menu.Item>
        <GuardedMenuItem permission={runNow} onClick={() => onAct('run')}>
          Run now
        </GuardedMenuItem>
        {t.active ? <Menu.Item onClick={() => onAct('disable')}>Pause</Menu.Item> : <Menu.Item onClick={() => onAct('enable')}>Resume</Menu.Item>}
        {/* The menu's own colour: Mantine's red on white is 3.3:1, under WCAG's 4.5:1 (the dialog's button says it). */}
        <Menu.Item onClick={onDelete}>Delete</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
