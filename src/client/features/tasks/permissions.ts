import type { PortalUser } from '../../api/index.ts';
import { ALL_TASKS_AUTHORITY, mayScheduleTaskType, TASK_TYPES, type TaskType } from '../../../shared/contract/tasks.ts';
import { authorityHolder, grants, requirePrivilege, type Permission } from '../../lib/privileges.ts';

/** Scheduling runs work on the member's content: members who cannot create content have no tasks. */
export const tasksAccess = (user: PortalUser): Permission => requirePrivilege(user, 'portal:user:createItem', 'schedule tasks');

/** The organization's tasks (every member's): the service's ALL_TASKS_AUTHORITY, read here as it decides. */
export const seesOrganizationTasks = (user: PortalUser): boolean => grants(user, ALL_TASKS_AUTHORITY);

/** The task types `user` may schedule, by the same table the service applies when the task is saved. */
export const schedulableTaskTypes = (user: PortalUser): Set<TaskType> => {
  const holder = authorityHolder(user);
  return new Set(TASK_TYPES.filter((t) => mayScheduleTaskType(holder, t)));
};
