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
import {
  canReassignItemsParams,
  canReassignParams,
  reassignItemsParams,
  reassignParams,
  type BlockedItem,
  type ReassignItemResult,
} from '../../../shared/contract/reassign.ts';
import { operation, REST } from '../../http/operation.ts';
import { itemNotFound } from '../items/service.ts';
import { evaluateItems } from './eligibility.ts';
import { ITEMS_OWNER } from './target.ts';
import { reassignRefused, refusedDetails, transferItems, transferParties } from './service.ts';
import { REASSIGN_OPERATIONS } from '../../../shared/contract/reassign.ts';

const USER = `${REST}/content/users/:username`;

/** One item addressed in the path: a missing one is the usual 400 CONT_0001; a refused one CONT_0291. */
function singleRefusal(blocked: BlockedItem) {
  return blocked.reasons.length === 1 && blocked.reasons[0].code === 'itemNotFound' ? itemNotFound(blocked.itemId) : reassignRefused([blocked]);
}

export function reassignRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${USER}/items/:itemId/reassign`,
    authority: REASSIGN_OPERATIONS.reassignItem,
    extras: ['tasksDeactivated', 'unsharedFrom'],
    params: reassignParams,
    target: ITEMS_OWNER,
    handler: async ({ caller, path, params, portal, target }) => {
      const parties = await transferParties(portal.db, target, params.targetUsername);
      const { moved, refused } = await transferItems(portal, caller, parties, [path.itemId], params.targetFolderName);
      if (refused.length) throw singleRefusal(refused[0]);
      return {
        success: true,
        itemId: path.itemId,
        tasksDeactivated: moved[0].tasksDeactivated,
        ...(moved[0].unsharedFrom.length ? { unsharedFrom: moved[0].unsharedFrom } : {}),
      };
    },
  });

  operation(app, {
    method: 'write',
    path: `${USER}/items/:itemId/canReassign`,
    authority: REASSIGN_OPERATIONS.canReassignItem,
    params: canReassignParams,
    target: ITEMS_OWNER,
    handler: async ({ path, params, portal, target }) => {
      const parties = await transferParties(portal.db, target, params.targetUsername);
      const refused = refusedDetails(await evaluateItems(portal.db, parties.source, parties.target, [path.itemId]), parties.source);
      if (refused.length) throw singleRefusal(refused[0]);
      return { success: true, itemId: path.itemId };
    },
  });

  operation(app, {
    method: 'write',
    path: `${USER}/canReassignItems`,
    authority: REASSIGN_OPERATIONS.canReassignItems,
    params: canReassignItemsParams,
    target: ITEMS_OWNER,
    handler: async ({ params, portal, target }) => {
      const parties = await transferParties(portal.db, target, params.targetUsername);
      const evaluations = await evaluateItems(portal.db, parties.source, parties.target, params.items);
      const refused = refusedDetails(evaluations, parties.source);
      if (refused.length) throw reassignRefused(refused);
      return { results: evaluations.map((e) => ({ itemId: e.itemId, success: true })) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${USER}/reassignItems`,
    authority: REASSIGN_OPERATIONS.reassignItems,
    extras: ['results.tasksDeactivated', 'results.unsharedFrom', 'results.error.details.reason', 'results.error.details.reasons'],
    params: reassignItemsParams,
    target: ITEMS_OWNER,
    handler: async ({ caller, params, portal, target }) => {
      const parties = await transferParties(portal.db, target, params.targetUsername);
      const { moved, refused } = await transferItems(portal, caller, parties, params.items, params.targetFolderName);
      const movedById = new Map(moved.map((m) => [m.itemId, m]));
      const refusedById = new Map(refused.map((r) => [r.itemId, r]));
      const results: ReassignItemResult[] = [...new Set(params.items)].map((itemId) => {
        const m = movedById.get(itemId);
        if (m) return { itemId, success: true, tasksDeactivated: m.tasksDeactivated, ...(m.unsharedFrom.length ? { unsharedFrom: m.unsharedFrom } : {}) };
        const blocked = refusedById.get(itemId)!;
        const err = reassignRefused([blocked]).toBody();
        return { itemId, success: false, error: { code: err.code, messageCode: err.messageCode, message: err.message, details: [blocked] } };
      });
      return { results };
    },
  });
}
