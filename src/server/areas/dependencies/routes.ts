/**
 * The dependency operations (issue 26, docs/dependencies.md "On the local portal"). ArcGIS has no
 * such operations: they are local-only, answered as unknown paths with LOCAL_EXTRAS=off, where the
 * console builds the same answers in the browser (src/shared/contract/dependencies.ts).
 */
import type { FastifyInstance } from 'fastify';
import { dependencyParams, dependencySummaryParams } from '../../../shared/contract/dependencies.ts';
import { operation, REST } from '../../http/operation.ts';
import { dependencySummary } from './summary.ts';
import { dependencyAnswer } from './walk.ts';
import { DEPENDENCY_OPERATIONS } from '../../../shared/contract/dependencies.ts';

export function dependencyRoutes(app: FastifyInstance): void {
  // Like reading the item: anyone who may see it (an administrator with viewItems sees the organization's).
  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/dependencies`,
    authority: DEPENDENCY_OPERATIONS.itemDependencies,
    params: dependencyParams,
    access: 'public',
    localOnly: true,
    handler: ({ caller, path, params, portal, reach }) => dependencyAnswer(portal, caller, reach, path.itemId, 'uses', params),
  });
  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/dependents`,
    authority: DEPENDENCY_OPERATIONS.itemDependents,
    params: dependencyParams,
    access: 'public',
    localOnly: true,
    handler: ({ caller, path, params, portal, reach }) => dependencyAnswer(portal, caller, reach, path.itemId, 'usedBy', params),
  });
  // A member reads their own organization's view, listing only what they may see (with viewItems: every item).
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/dependencies`,
    authority: DEPENDENCY_OPERATIONS.organizationDependencies,
    params: dependencySummaryParams,
    localOnly: true,
    handler: ({ caller, path, params, portal, reach }) => dependencySummary(portal, caller, reach, path.orgId === 'self' ? caller.orgId : path.orgId, params),
  });
}
