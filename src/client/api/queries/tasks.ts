/** Scheduled tasks (`community/users/<u>/tasks`, the organization's tasks): the one key factory and the read options. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listOrgTasks, listTaskRuns, listTasks, type TaskListQuery } from '../tasks.ts';

export const taskKeys = {
  all: ['tasks'] as const,
  list: (scope: { username: string } | { orgId: string }, q: TaskListQuery) => ['tasks', 'list', scope, q] as const,
  runs: (taskId: string) => ['tasks', 'runs', taskId] as const,
};

/** The member's own tasks, or (administrators, `orgId` given) every task of the organization. */
export const tasksQuery = (scope: { username: string } | { orgId: string }, q: TaskListQuery) =>
  queryOptions({
    queryKey: taskKeys.list(scope, q),
    queryFn: ({ signal }) => ('orgId' in scope ? listOrgTasks(scope.orgId, q, { signal }) : listTasks(scope.username, q, { signal })),
    placeholderData: keepPreviousData,
    // Next runs and last results move on their own: look again now and then, and often while a run is under way.
    refetchInterval: (query) => (query.state.data?.tasks.some((t) => t.lastRunStatus === 'scheduled' || t.lastRunStatus === 'executing') ? 2_000 : 15_000),
  });

export const runsQuery = (owner: string, taskId: string) =>
  // A task id names the task; its owner only builds the URL.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: taskKeys.runs(taskId),
    queryFn: ({ signal }) => listTaskRuns(owner, taskId, { signal }),
    refetchInterval: 5_000,
  });
