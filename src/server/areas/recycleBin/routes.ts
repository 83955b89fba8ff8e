/**
 * Recycle bin operations, at ArcGIS Online's paths (docs/rest-operations.md "Recycle bin"):
 * `content/users/<u>/items/<id>/restore` (POST, `folder`), `…/canRestore`, `…/canRecycle` (GET),
 * and the listing `content/portals/<orgId>?recycleBinItems=true`. Deleting into the bin, and
 * `permanentDelete=true`, are the item's own `delete` (areas/items/manage.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RECYCLE_BIN_OPERATIONS } from '../../../shared/contract/recycleBin.ts';
import { commaList, pagingParams, sortOrder, wireBool } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { badParam } from '../../http/errors.ts';
import type { Reach } from '../../http/reach.ts';
import { operation, REST } from '../../http/operation.ts';
import { assertMayChange, itemNotFound, visibleItem, OWNER_ITEM_PATHS } from '../items/service.ts';
import { canRestore, listRecycleBin, recyclable, restoreItem } from './service.ts';
import { recycledTarget } from './target.ts';

async function canRecycle(ctx: PortalContext, caller: Caller, reach: Reach, username: string, itemId: string) {
  const row = await visibleItem(ctx.db, itemId, caller);
  if (row.owner_username.toLowerCase() !== username.toLowerCase()) throw itemNotFound(itemId);
  assertMayChange(row, caller, reach);
  if (recyclable(row)) return { itemId, success: true as const };
  return {
    itemId,
    success: false as const,
    error: { code: 400, messageCode: 'CONT_0298', message: 'Item is not supported by the recycle bin.', details: [`The item's upload is ${row.status}.`] },
  };
}

export function recycleBinRoutes(app: FastifyInstance): void {
  for (const base of OWNER_ITEM_PATHS) {
    operation(app, {
      method: 'write',
      path: `${base}/restore`,
      authority: RECYCLE_BIN_OPERATIONS.restoreItem,
      target: recycledTarget(RECYCLE_BIN_OPERATIONS.restoreItem),
      params: z.object({ folder: z.string().trim().max(256).optional() }),
      handler: ({ caller, params, portal, target }) => restoreItem(portal, caller, target, params.folder),
    });
    operation(app, {
      method: 'read',
      path: `${base}/canRestore`,
      authority: RECYCLE_BIN_OPERATIONS.canRestoreItem,
      target: recycledTarget(RECYCLE_BIN_OPERATIONS.canRestoreItem),
      params: z.object({}),
      handler: ({ portal, target }) => canRestore(portal, target),
    });
    operation(app, {
      method: 'read',
      path: `${base}/canRecycle`,
      authority: RECYCLE_BIN_OPERATIONS.canRecycleItem,
      params: z.object({}),
      handler: ({ caller, path, portal, reach }) => canRecycle(portal, caller, reach, path.username, path.itemId),
    });
  }
  operation(app, {
    method: 'read',
    path: `${REST}/content/portals/:portalId`,
    authority: RECYCLE_BIN_OPERATIONS.recycleBinItems,
    params: pagingParams.extend({
      recycleBinItems: wireBool.optional(),
      types: commaList.optional(),
      sortField: z.string().optional(),
      sortOrder: sortOrder,
      owner: z.string().trim().max(128).optional(),
    }),
    localParams: ['owner'],
    extras: ['items.deleted', 'items.deletedBy', 'items.expires'],
    handler: ({ caller, path, params, portal, reach }) => {
      // The organization's whole content is search's business here; this path answers the bin.
      if (params.recycleBinItems !== true) throw badParam('recycleBinItems', 'must be true: this portal lists only the recycle bin here');
      return listRecycleBin(portal, caller, reach, path.portalId, params);
    },
  });
}
