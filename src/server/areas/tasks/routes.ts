/** Scheduled tasks: `community/users/<u>/tasks/…` and `portals/<orgId>/allScheduledTasks` (spec §4.2; facts §3.2). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { allTasksParams, createTaskParams, TASK_LIMITS, taskListParams, TASK_OPERATIONS, updateTaskParams } from '../../../shared/contract/tasks.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { userNotFound } from '../../http/errors.ts';
import { orgTarget } from '../../http/target.ts';
import { operation, REST } from '../../http/operation.ts';
import { rawParams } from '../../http/params.ts';
import type { FastifyRequest } from 'fastify';
import {
  activeTasksAvailable,
  createTask,
  deleteTask,
  findRun,
  listRuns,
  listTasks,
  memberIdInOrg,
  ownedTask,
  runTaskNow,
  setTaskEnabled,
  taskNotFound,
  toRunRecord,
  toTaskRecord,
  updateTask,
} from './service.ts';
import { TASK_OWNER } from './target.ts';

const USER = `${REST}/community/users/:username`;
const TASKS = `${USER}/tasks`;
const TASK = `${TASKS}/:taskId`;
/** The organization whose tasks allScheduledTasks lists (`self` is the caller's own), decided with ALL_TASKS_AUTHORITY by operation(). */
const ALL_TASKS_REFUSAL = 'Only default administrators of the organization can list all its scheduled tasks.';
const ALL_TASKS_ORG = orgTarget({ otherOrg: ALL_TASKS_REFUSAL, notDefaultAdmin: ALL_TASKS_REFUSAL }, { self: true });

const none = z.object({});

/** The token sent in the form field `token` (a geoprocessing task keeps it to submit its jobs). */
function formToken(req: FastifyRequest): string | undefined {
  const t = rawParams(req).token;
  return typeof t === 'string' && t.trim() ? t.trim() : undefined;
}

export function taskRoutes(app: FastifyInstance): void {
  // createTask, and the alternate paths the documentation shows (a task id segment before
  // createTask, which names nothing here; and the user path for geoprocessing tasks).
  for (const path of [`${TASKS}/createTask`, `${TASK}/createTask`, `${USER}/createTask`]) {
    operation(app, {
      method: 'write',
      path,
      authority: TASK_OPERATIONS.createTask,
      params: createTaskParams,
      handler: ({ caller, params, portal, req, reach }) => createTask(portal, caller, reach, params, formToken(req)),
    });
  }

  operation(app, {
    method: 'read',
    path: TASKS,
    authority: TASK_OPERATIONS.listTasks,
    target: TASK_OWNER,
    extras: ['tasks.nextRun'],
    params: taskListParams,
    handler: async ({ caller, params, portal, target: owner }) => {
      const filter = { orgId: caller.orgId, ownerId: owner.id, itemId: params.itemId, active: params.active, types: params.types, state: params.status };
      const { total, rows } = await listTasks(portal.db, filter, { field: params.sortField, order: params.sortOrder }, params.start - 1, params.num);
      return {
        ...pageEnvelope(total, params, rows.length),
        activeTasksAvailable: await activeTasksAvailable(portal, caller.orgId, owner.id),
        tasks: rows.map(toTaskRecord),
      };
    },
  });

  operation(app, {
    method: 'read',
    path: TASK,
    authority: TASK_OPERATIONS.task,
    target: TASK_OWNER,
    extras: ['nextRun'],
    params: none,
    handler: async ({ caller, path, portal, target: owner }) => toTaskRecord(await ownedTask(portal.db, caller, owner, path.taskId)),
  });

  operation(app, {
    method: 'write',
    path: `${TASK}/update`,
    authority: TASK_OPERATIONS.updateTask,
    target: TASK_OWNER,
    params: updateTaskParams,
    handler: ({ caller, path, params, portal, req, reach, target: owner }) => updateTask(portal, caller, reach, owner, path.taskId, params, formToken(req)),
  });

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    operation(app, {
      method: 'write',
      path: `${TASK}/${verb}`,
      authority: TASK_OPERATIONS.enableTask,
      target: TASK_OWNER,
      params: none,
      handler: ({ caller, path, portal, target: owner }) => setTaskEnabled(portal, caller, owner, path.taskId, enabled),
    });
  }

  operation(app, {
    method: 'write',
    path: `${TASK}/delete`,
    authority: TASK_OPERATIONS.deleteTask,
    target: TASK_OWNER,
    params: none,
    handler: ({ caller, path, portal, target: owner }) => deleteTask(portal, caller, owner, path.taskId),
  });

  // A local operation: start a run now (the console's "Run now").
  operation(app, {
    method: 'write',
    path: `${TASK}/run`,
    authority: TASK_OPERATIONS.runTask,
    target: TASK_OWNER,
    localOnly: true,
    params: none,
    handler: ({ caller, path, portal, target: owner }) => runTaskNow(portal, caller, owner, path.taskId),
  });

  operation(app, {
    method: 'read',
    path: `${TASK}/runs`,
    authority: TASK_OPERATIONS.taskRuns,
    target: TASK_OWNER,
    params: none,
    handler: async ({ caller, path, portal, target: owner }) => {
      const task = await ownedTask(portal.db, caller, owner, path.taskId);
      return { runs: (await listRuns(portal.db, task.id, TASK_LIMITS.runsListed)).map(toRunRecord) };
    },
  });

  operation(app, {
    method: 'read',
    path: `${TASK}/runs/:runId`,
    authority: TASK_OPERATIONS.taskRuns,
    target: TASK_OWNER,
    params: none,
    handler: async ({ caller, path, portal, target: owner }) => {
      const task = await ownedTask(portal.db, caller, owner, path.taskId);
      const run = await findRun(portal.db, task.id, path.runId);
      if (!run) throw taskNotFound(`${path.taskId}/runs/${path.runId}`);
      return toRunRecord(run);
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/allScheduledTasks`,
    authority: TASK_OPERATIONS.allScheduledTasks,
    target: ALL_TASKS_ORG,
    extras: ['tasks.nextRun'],
    params: allTasksParams,
    handler: async ({ params, portal, target: { orgId } }) => {
      let ownerId: string | undefined;
      if (params.userFilter) {
        ownerId = await memberIdInOrg(portal.db, orgId, params.userFilter);
        if (ownerId === undefined) throw userNotFound(params.userFilter);
      }
      const filter = { orgId, ownerId, itemId: params.itemId, active: params.active, types: params.types, state: params.status };
      const { total, rows } = await listTasks(portal.db, filter, { field: params.sortField, order: params.sortOrder }, params.start - 1, params.num);
      return { ...pageEnvelope(total, params, rows.length), tasks: rows.map(toTaskRecord) };
    },
  });
}
