/**
 * Bulk member jobs, local extras (docs/local-extras.md): each declares its authority from
 * MEMBER_JOB_OPERATIONS and is local-only (with LOCAL_EXTRAS=off it answers as an unknown path,
 * and the console runs the action from the browser instead).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  MEMBER_JOB_ACTIONS,
  MEMBER_JOB_CREATE,
  MEMBER_JOB_OPERATIONS as OPS,
  MEMBER_JOB_PATHS,
  MEMBER_JOB_USERNAMES_CHARS,
  memberJobParams,
  memberJobResultsParams,
} from '../../../shared/contract/memberJobs.ts';
import { pagingParams } from '../../../shared/contract/wire.ts';
import { operation, REST } from '../../http/operation.ts';
import { orgTarget } from '../../http/target.ts';
import { ADD_TO_GROUPS_TARGET, controlJob, createJob, JOB_TARGET, jobResults, jobStatus, listJobs, undoJob } from './service.ts';

const ORG = orgTarget({ otherOrg: 'You can run member jobs only in your own organization.' }, { self: true });
const BASE = `${REST}/portals/:orgId/memberJobs`;
const JOB = `${BASE}/:jobId`;
const none = z.object({});

export function memberJobRoutes(app: FastifyInstance): void {
  for (const action of MEMBER_JOB_ACTIONS) {
    operation(app, {
      localOnly: true,
      target: action === 'addToGroups' ? ADD_TO_GROUPS_TARGET : ORG,
      method: 'write',
      path: `${BASE}/${MEMBER_JOB_PATHS[action]}`,
      authority: OPS[MEMBER_JOB_CREATE[action]],
      params: memberJobParams[action],
      longParams: { usernames: MEMBER_JOB_USERNAMES_CHARS },
      handler: ({ caller, params, portal }) => createJob(portal, caller, action, params),
    });
  }
  operation(app, {
    localOnly: true,
    target: ORG,
    method: 'read',
    path: BASE,
    authority: OPS.memberJobs,
    params: pagingParams,
    handler: ({ params, portal, target }) => listJobs(portal, target.orgId, params),
  });
  operation(app, {
    localOnly: true,
    target: JOB_TARGET,
    method: 'read',
    path: JOB,
    authority: OPS.memberJob,
    params: none,
    handler: ({ portal, target }) => jobStatus(portal, target),
  });
  operation(app, {
    localOnly: true,
    target: JOB_TARGET,
    method: 'read',
    path: `${JOB}/results`,
    authority: OPS.memberJobResults,
    params: memberJobResultsParams,
    handler: ({ params, portal, target }) => jobResults(portal, target, params),
  });
  for (const verb of ['pause', 'resume', 'cancel'] as const) {
    operation(app, {
      localOnly: true,
      target: JOB_TARGET,
      method: 'write',
      path: `${JOB}/${verb}`,
      authority: OPS[`${verb}MemberJob`],
      params: none,
      handler: ({ portal, target }) => controlJob(portal, target, verb),
    });
  }
  operation(app, {
    localOnly: true,
    target: JOB_TARGET,
    method: 'write',
    path: `${JOB}/undo`,
    authority: OPS.undoMemberJob,
    params: none,
    handler: ({ caller, portal, target }) => undoJob(portal, caller, target),
  });
}
