import type { PortalUser } from '../../api/index.ts';
import { CONTENT_OWNER_PRIVILEGE } from '../../../shared/contract/items.ts';
import { mayScheduleTaskType, TASK_TYPES, type TaskType } from '../../../shared/contract/tasks.ts';
import { can } from '../../lib/can.ts';
import { authorityHolder, requirePrivilege, type Permission } from '../../lib/privileges.ts';

/** Scheduling runs work on the member's content: members who cannot create content have no tasks. */
export const tasksAccess = (user: PortalUser): Permission => requirePrivilege(user, CONTENT_OWNER_PRIVILEGE, 'schedule tasks');

/** The organization's tasks (every member's): the service's declaration of allScheduledTasks, read through can(). */
export const seesOrganizationTasks = (user: PortalUser): boolean => can(user, 'allScheduledTasks').allowed;

/** The task types `user` may schedule, by the same table the service applies when the task is saved. */
export const schedulableTaskTypes = (user: PortalUser): Set<TaskType> => {
  const holder = authorityHolder(user);
  return new Set(TASK_TYPES.filter((t) => mayScheduleTaskType(holder, t)));
};
