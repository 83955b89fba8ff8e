/**
 * `content/users/<u>/addRelationship`, `content/users/<u>/deleteRelationship`,
 * `content/items/<id>/relatedItems` (spec §4.11, facts §3.9 and Appendix A). Both spellings of the
 * type parameter are accepted: `relationshipType` (rest-js) and `relationshipTypes` (the spec).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { commaList, pageEnvelope, pagingParams, sortOrder } from '../../../shared/contract/wire.ts';
import { operation, REST } from '../../http/operation.ts';
import { toItem } from '../items/service.ts';
import { addRelationship, deleteRelationship, relatedItems } from './service.ts';
import { RELATIONSHIP_OPERATIONS } from '../../../shared/contract/relationships.ts';

const relationshipParams = z
  .object({
    originItemId: z.string().trim().min(1, 'is required'),
    destinationItemId: z.string().trim().min(1, 'is required'),
    relationshipType: z.string().trim().min(1).optional(),
    relationshipTypes: z.string().trim().min(1).optional(),
  })
  .transform((p, ctx) => {
    const type = p.relationshipType ?? p.relationshipTypes;
    if (!type) {
      ctx.addIssue({ code: 'custom', path: ['relationshipType'], message: 'is required' });
      return z.NEVER;
    }
    return { originId: p.originItemId, destinationId: p.destinationItemId, type };
  });

const relatedParams = pagingParams.extend({
  relationshipType: commaList.optional(),
  relationshipTypes: commaList.optional(),
  direction: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['forward', 'reverse', 'both', '']))
    .optional(),
  sortField: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['created', '']))
    .optional(),
  sortOrder: sortOrder,
});

export function relationshipRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/content/users/:username/addRelationship`,
    authority: RELATIONSHIP_OPERATIONS.addRelationship,
    params: relationshipParams,
    handler: async ({ caller, params, portal }) => {
      await portal.db.tx((q) => addRelationship(q, caller, params, portal.clock.now()));
      return { success: true };
    },
  });

  operation(app, {
    method: 'write',
    path: `${REST}/content/users/:username/deleteRelationship`,
    authority: RELATIONSHIP_OPERATIONS.deleteRelationship,
    params: relationshipParams,
    handler: async ({ caller, params, portal }) => {
      await portal.db.tx((q) => deleteRelationship(q, caller, params, portal.clock.now()));
      return { success: true };
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/relatedItems`,
    authority: RELATIONSHIP_OPERATIONS.relatedItems,
    extras: ['relatedItems.relationshipTypes'],
    params: relatedParams,
    access: 'public',
    handler: async ({ caller, params, path, portal }) => {
      const types = [...(params.relationshipType ?? []), ...(params.relationshipTypes ?? [])];
      const direction = params.direction === 'forward' || params.direction === 'reverse' ? params.direction : 'both';
      const { total, rows } = await relatedItems(portal.db, caller, path.itemId, {
        types,
        direction,
        offset: params.start - 1,
        limit: params.num,
        order: params.sortOrder,
      });
      // `relationshipTypes` on each item is a local-portal extra (real clients ignore it): what relates it.
      return { ...pageEnvelope(total, params, rows.length), relatedItems: rows.map((r) => ({ ...toItem(r), relationshipTypes: r.rel_types })) };
    },
  });
}
