/**
 * setContentStatus (spec §4.7, facts §3.6): `deprecated` by the owner or an administrator of the
 * item's organization (portal:admin:updateItems); `org_authoritative` / `public_authoritative`
 * by such administrators only; `public_authoritative` only in a public and verified organization
 * (else 400 CONT_0163); `status=null` (or an empty status with clearEmptyFields=true) removes it. Removing or
 * replacing an authoritative status is an administrator's change too. Authoritative items are
 * delete-protected (manage.ts); when the organization's verification changes, they follow it
 * (orgVerification.ts).
 *
 * Local extra (docs/rest-operations.md): `replacedBy`, the id of an item the caller can see that
 * replaces this one, only with status=deprecated. It is stored with the item, returned on it as
 * `replacedBy`, recorded in the history event, and cleared by any other status change.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import { CONTENT_STATUSES, ITEM_OPERATIONS, itemIdParam } from '../../../shared/contract/items.ts';
import { wireBool } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam, forbidden } from '../../http/errors.ts';
import { operation, REST } from '../../http/operation.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { findOrg } from '../portals/service.ts';
import { visibleItem } from './access.ts';
import { lockItem } from './repo.ts';
import { setItemContentStatus } from './repo/contentStatus.ts';
import type { Reach } from '../../http/reach.ts';

/**
 * `status=null` is the documented way to remove the status ("Set Content Status": null |
 * deprecated | org_authoritative | public_authoritative); an empty status with
 * clearEmptyFields=true, which this portal took first, still works too.
 */
export const setContentStatusParams = z
  .object({
    status: z.union([z.enum(CONTENT_STATUSES), z.literal(''), z.literal('null')]).default(''),
    clearEmptyFields: wireBool.default(false),
    replacedBy: itemIdParam.optional().or(z.literal('').transform(() => undefined)),
  })
  .transform(({ status, clearEmptyFields, replacedBy }) =>
    status === 'null' ? { status: '' as const, clearEmptyFields: true, replacedBy } : { status, clearEmptyFields, replacedBy },
  );

const AUTHORITATIVE = new Set(['org_authoritative', 'public_authoritative']);

/** `reach`: setContentStatus's declaration, asked on the row once it is locked (an authoritative status is the administrator's alone). */
export async function setContentStatus(ctx: PortalContext, caller: Caller, reach: Reach, itemId: string, p: z.output<typeof setContentStatusParams>) {
  if (![...caller.privileges].some((id) => id.startsWith('portal:'))) throw forbidden('Requires a portal: privilege.');
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await lockItem(q, itemId);
    const row = await visibleItem(q, itemId, caller);
    const admin = reach.others(row.org_id);
    const owner = row.owner_id === caller.userId;
    if (p.status === '' && !p.clearEmptyFields) throw badParam('clearEmptyFields', 'must be true to remove the content status');
    const touchesAuthoritative = AUTHORITATIVE.has(p.status) || (row.content_status !== null && AUTHORITATIVE.has(row.content_status));
    if (touchesAuthoritative && !admin)
      throw forbidden('Only an administrator of the organization (portal:admin:updateItems) can set or remove an authoritative status.');
    if (!admin && !owner) throw forbidden('Only the owner or an administrator (portal:admin:updateItems) can set the content status.');
    if (p.status === 'public_authoritative') {
      const org = await findOrg(q, row.org_id);
      if (!org || org.access !== 'public' || !org.is_verified) {
        throw new ApiError(
          400,
          'Public authoritative status requires a public and verified organization.',
          ['The organization must be public and verified to mark items public_authoritative.'],
          MESSAGE_CODES.publicAuthoritativeRefused,
        );
      }
    }
    const status = p.status === '' ? null : p.status;
    const replacedBy = await replacementOf(q, caller, row.id, status, p.replacedBy);
    await setItemContentStatus(q, row.id, status, replacedBy, now);
    await recordEvent(q, {
      orgId: row.org_id,
      source: 'item',
      operation: 'update',
      subjectId: row.id,
      actor: actorOf(caller),
      properties: { contentStatus: status ?? '' },
      when: now,
      history: {
        op: 'setContentStatus',
        owner: row.owner_username,
        title: row.title,
        data: {
          before: { contentStatus: row.content_status ?? '', ...(row.replaced_by ? { replacedBy: row.replaced_by } : {}) },
          after: { contentStatus: status ?? '', ...(replacedBy ? { replacedBy } : {}) },
        },
      },
    });
    return { success: true as const, itemId: row.id };
  });
}

/** The replacement to store: only with `deprecated`, never the item itself, and one the caller can see (else 400). */
async function replacementOf(q: Queryable, caller: Caller, itemId: string, status: string | null, replacedBy: string | undefined): Promise<string | null> {
  if (replacedBy === undefined) return null;
  if (status !== 'deprecated') throw badParam('replacedBy', 'is only accepted with status=deprecated');
  if (replacedBy === itemId) throw badParam('replacedBy', 'must be another item than the deprecated one');
  try {
    return (await visibleItem(q, replacedBy, caller)).id;
  } catch (err) {
    if (err instanceof ApiError && (err.code === 400 || err.code === 403 || err.code === 404)) throw badParam('replacedBy', 'is not an item you can see');
    throw err;
  }
}

export function itemStatusRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/content/items/:itemId/setContentStatus`,
    authority: ITEM_OPERATIONS.setContentStatus,
    params: setContentStatusParams,
    handler: ({ caller, path, params, portal, reach }) => setContentStatus(portal, caller, reach, path.itemId, params),
  });
}
