/**
 * Member lifecycle operations, local extras (docs/rest-operations.md, "Member lifecycle"): each
 * declares its authority from MEMBER_LIFECYCLE_OPERATIONS and is local-only (with LOCAL_EXTRAS=off
 * it answers as an unknown path, which is how the console finds a portal without them).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  clearExpirationParams,
  createPolicyParams,
  expirationsParams,
  MEMBER_LIFECYCLE_OPERATIONS as OPS,
  setExpirationParams,
} from '../../../shared/contract/memberLifecycle.ts';
import { commaList } from '../../../shared/contract/wire.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { operation, REST } from '../../http/operation.ts';
import { orgTarget } from '../../http/target.ts';
import { listExpirations, setExpirations } from './expirations.ts';
import * as policies from './policies.ts';

const ORG = orgTarget({ otherOrg: "You can manage members' lifecycle only in your own organization." }, { self: true });
const BASE = `${REST}/portals/:orgId/memberLifecycle`;
const POLICY = `${BASE}/policies/:policyId`;
const none = z.object({});

export function memberLifecycleRoutes(app: FastifyInstance): void {
  const local = { localOnly: true, target: ORG } as const;

  operation(app, {
    ...local,
    method: 'write',
    path: `${BASE}/setExpiration`,
    authority: OPS.setExpiration,
    params: setExpirationParams,
    handler: ({ caller, params, portal }) => setExpirations(portal, caller, params.usernames, params.expiration),
  });
  operation(app, {
    ...local,
    method: 'write',
    path: `${BASE}/clearExpiration`,
    authority: OPS.clearExpiration,
    params: clearExpirationParams,
    handler: ({ caller, params, portal }) => setExpirations(portal, caller, params.usernames, null),
  });
  operation(app, {
    ...local,
    method: 'read',
    path: `${BASE}/expirations`,
    authority: OPS.expirations,
    params: expirationsParams.extend({ usernames: commaList.pipe(z.array(z.string().max(LIMITS.usernameMaxChars)).max(100)).optional() }),
    handler: ({ params, portal, target }) => listExpirations(portal, target.orgId, params, params.usernames),
  });

  operation(app, {
    ...local,
    method: 'read',
    path: `${BASE}/policies`,
    authority: OPS.inactivityPolicies,
    params: none,
    handler: ({ portal, target }) => policies.listPolicies(portal, target.orgId),
  });
  operation(app, {
    ...local,
    method: 'write',
    path: `${BASE}/policies/createPolicy`,
    authority: OPS.createInactivityPolicy,
    params: createPolicyParams,
    handler: ({ caller, params, portal, target }) => policies.createPolicy(portal, caller, target.orgId, params),
  });
  operation(app, {
    ...local,
    method: 'read',
    path: POLICY,
    authority: OPS.inactivityPolicy,
    params: none,
    handler: ({ path, portal, target }) => policies.getPolicy(portal, target.orgId, path.policyId),
  });
  operation(app, {
    ...local,
    method: 'read',
    path: `${POLICY}/preview`,
    authority: OPS.previewInactivityPolicy,
    params: none,
    handler: ({ path, portal, target }) => policies.previewPolicy(portal, target.orgId, path.policyId),
  });
  operation(app, {
    ...local,
    method: 'read',
    path: `${POLICY}/runs`,
    authority: OPS.inactivityPolicyRuns,
    params: none,
    handler: ({ path, portal, target }) => policies.listPolicyRuns(portal, target.orgId, path.policyId),
  });
  operation(app, {
    ...local,
    method: 'write',
    path: `${POLICY}/update`,
    authority: OPS.updateInactivityPolicy,
    params: createPolicyParams,
    handler: ({ caller, params, path, portal, target }) => policies.updatePolicy(portal, caller, target.orgId, path.policyId, params),
  });
  operation(app, {
    ...local,
    method: 'write',
    path: `${POLICY}/delete`,
    authority: OPS.deleteInactivityPolicy,
    params: none,
    handler: ({ path, portal, target }) => policies.deletePolicy(portal, target.orgId, path.policyId),
  });
  for (const [verb, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    operation(app, {
      ...local,
      method: 'write',
      path: `${POLICY}/${verb}`,
      authority: OPS[active ? 'enableInactivityPolicy' : 'disableInactivityPolicy'],
      params: none,
      handler: ({ path, portal, target }) => policies.setPolicyActive(portal, target.orgId, path.policyId, active),
    });
  }
  operation(app, {
    ...local,
    method: 'write',
    path: `${POLICY}/runs/:policyRunId/undo`,
    authority: OPS.undoInactivityPolicyRun,
    params: none,
    handler: ({ caller, path, portal, target }) => policies.undoPolicyRun(portal, caller, target.orgId, path.policyId, path.policyRunId),
  });
}
