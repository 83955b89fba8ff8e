/**
 * `content/users/<user>/items/<id>/reassign`, `…/items/<id>/canReassign`,
 * `content/users/<user>/canReassignItems` and `content/users/<user>/reassignItems`
 * (spec §4.5, §4.8; facts §3.4, §3.7).
 *
 * - reassign: `{success, itemId}`; a refused item → 403 CONT_0291 with the item in `details`;
 *   an item that is not the path user's → 400 CONT_0001 (does not exist or is inaccessible).
 * - canReassign: `{success:true, itemId}`, or the same errors.
 * - canReassignItems (≤100 ids): `{results:[{itemId, success:true}]}` when every item may go;
 *   otherwise 403 CONT_0291 with one detail per refused item (the others may go).
 * - reassignItems (≤100 ids): every eligible item moves; `{results:[{itemId, success}]}`, a
 *   refused item's entry carrying the CONT_0291 error of that item. Nothing of a refused item
 *   changes. The answer also says, per item, the scheduled tasks deactivated (local extra).
 */
import type { FastifyInstance } from 'fastify';
import { canReassignItemsParams, canReassignParams, REASSIGN_OPERATIONS, reassignItemsParams, reassignParams } from '../../../shared/contract/reassign.ts';
import { operation, REST } from '../../http/operation.ts';
import { ITEMS_OWNER } from './target.ts';
import { canReassignItem, canReassignItems, reassignItem, reassignItems } from './service.ts';

const USER = `${REST}/content/users/:username`;

export function reassignRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${USER}/items/:itemId/reassign`,
    authority: REASSIGN_OPERATIONS.reassignItem,
    extras: ['tasksDeactivated', 'unsharedFrom'],
    params: reassignParams,
    target: ITEMS_OWNER,
    handler: ({ caller, path, params, portal, target }) =>
      reassignItem(portal, caller, { source: target, targetUsername: params.targetUsername, targetFolderName: params.targetFolderName }, path.itemId),
  });

  operation(app, {
    method: 'write',
    path: `${USER}/items/:itemId/canReassign`,
    authority: REASSIGN_OPERATIONS.canReassignItem,
    params: canReassignParams,
    target: ITEMS_OWNER,
    handler: ({ path, params, portal, target }) => canReassignItem(portal, target, params.targetUsername, path.itemId),
  });

  operation(app, {
    method: 'write',
    path: `${USER}/canReassignItems`,
    authority: REASSIGN_OPERATIONS.canReassignItems,
    params: canReassignItemsParams,
    target: ITEMS_OWNER,
    handler: ({ params, portal, target }) => canReassignItems(portal, target, params.targetUsername, params.items),
  });

  operation(app, {
    method: 'write',
    path: `${USER}/reassignItems`,
    authority: REASSIGN_OPERATIONS.reassignItems,
    extras: ['results.tasksDeactivated', 'results.unsharedFrom', 'results.error.details.reason', 'results.error.details.reasons'],
    params: reassignItemsParams,
    target: ITEMS_OWNER,
    handler: ({ caller, params, portal, target }) =>
      reassignItems(portal, caller, { source: target, targetUsername: params.targetUsername, targetFolderName: params.targetFolderName }, params.items),
  });
}
