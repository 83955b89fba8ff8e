/**
 * Item resources (ArcGIS REST "Add Resources", "Update Resources", "Remove Resources", "Item
 * Resources"): files kept beside an item at paths of plain segments, added and changed by its owner
 * or an administrator, read by whoever may see the item (a private resource: the owner and
 * administrators only; a public one: anyone).
 */
import { z } from 'zod';
import { ownerOr, visible, type Authority } from '../authority.ts';
import { content } from './items.ts';
import { LIMITS } from '../limits.ts';
import { sortOrder, wireBool, wireInt } from './wire.ts';

export const RESOURCE_OPERATIONS = {
  addResources: content(ownerOr('portal:admin:updateItems')),
  updateResources: content(ownerOr('portal:admin:updateItems')),
  removeResources: content(ownerOr('portal:admin:updateItems')),
  /** Reading: what the item's sharing shows; a resource added with access=private, only its owner and whom viewItems widens the read to. */
  itemResources: visible('portal:admin:viewItems'),
  itemResource: visible('portal:admin:viewItems'),
} as const satisfies Record<string, Authority>;

export const RESOURCE_ACCESS = ['inherit', 'private', 'public'] as const;
export type ResourceAccess = (typeof RESOURCE_ACCESS)[number];

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** addResources and updateResources, besides the `file` part (read by the service). */
export const resourceWriteParams = z.object({
  fileName: text(LIMITS.resourcePathChars).optional(),
  resourcesPrefix: text(LIMITS.resourcePathChars).optional(),
  text: z.string().optional(),
  access: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(RESOURCE_ACCESS))
    .optional(),
  archive: wireBool.optional(),
});

export const removeResourcesParams = z.object({
  resource: text(LIMITS.resourcePathChars).optional(),
  deleteAll: wireBool.optional(),
});

/** content/items/<id>/resources: rest-js asks for num=1000 (every resource an item may hold) in one page. */
export const listResourcesParams = z.object({
  start: wireInt(1, Number.MAX_SAFE_INTEGER).default(1),
  num: wireInt(0, Number.MAX_SAFE_INTEGER)
    .default(LIMITS.defaultPageSize)
    .transform((n) => Math.min(n, LIMITS.resourcesPerItem)),
  sortField: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['resource', 'created', 'size']))
    .default('resource'),
  sortOrder,
});

export interface ItemResource {
  resource: string;
  access: ResourceAccess;
  created: number;
  size: number;
}
