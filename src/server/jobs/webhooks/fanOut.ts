/**
 * Webhook job 1 of 3, fan-out: outbox rows after the cursor (`webhook_cursor`, locked FOR UPDATE)
 * become one `webhook_deliveries` row per active webhook of the event's organization whose events
 * match; the cursor advances in the same transaction, so an event is fanned out once even with
 * several processes. A gap in `seq` (a transaction still open, or rolled back) holds the cursor
 * back until it fills or for gapGraceMs (PGlite: one writer, so a gap is a rollback). Only the
 * EVENT_CATALOGUE's sources are delivered; history-only events share the outbox.
 */
import { randomUUID } from 'node:crypto';
import { EVENT_CATALOGUE, subscriptionMatches } from '../../../shared/events.ts';
import type { PortalContext } from '../../context.ts';
import {
  activeWebhooksOf,
  insertDeliveries,
  lockFanOutCursor,
  moveFanOutCursor,
  outboxAfter,
  outboxHasNew,
  type NewDeliveries,
  type OutboxRow,
} from '../../areas/webhooks/service.ts';
import { webhookDispatchOf } from '../../config.ts';

/** One fan-out transaction; answers how many outbox rows it consumed. */
export async function fanOut(ctx: PortalContext): Promise<number> {
  const wallNow = Date.now();
  const { fanOutBatch, gapGraceMs } = webhookDispatchOf(ctx.config);
  // An idle pass only reads: no transaction (and no write) unless the outbox has something new.
  if (!(await outboxHasNew(ctx.db))) return 0;
  return ctx.db.tx(async (q) => {
    const cursor = await lockFanOutCursor(q);
    let last = Number(cursor.last_seq);
    const rows = await outboxAfter(q, last, fanOutBatch);
    if (!rows.length) return 0;
    const taken: OutboxRow[] = [];
    let gapSince: number | null = null;
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== last + 1) {
        const since = cursor.gap_since === null ? wallNow : Number(cursor.gap_since);
        if (ctx.db.kind !== 'pglite' && wallNow - since < gapGraceMs) {
          gapSince = since;
          break;
        }
      }
      taken.push(row);
      last = seq;
    }
    const orgs = [...new Set(taken.map((r) => r.org_id))];
    const hooks = orgs.length ? await activeWebhooksOf(q, orgs) : [];
    const now = ctx.clock.now();
    // Column arrays for one multi-row insert (a statement per delivery costs more than the rows).
    const cols: NewDeliveries = { id: [], hook: [], org: [], event: [], uri: [], body: [] };
    for (const e of taken) {
      // History-only events (webhooks, tasks, collaborations, settings, sign-ins) share the outbox but
      // are not webhook events: only the catalogue's sources are delivered, even to a `/` subscription.
      if (!Object.hasOwn(EVENT_CATALOGUE, e.source)) continue;
      for (const h of hooks) {
        if (h.org_id !== e.org_id || Number(e.created) < Number(h.created) || !subscriptionMatches(h.events, e.uri)) continue;
        const event = {
          userId: e.user_id,
          username: e.username,
          when: Number(e.created),
          operation: e.operation,
          source: e.source,
          id: e.subject_id,
          properties: e.properties,
        };
        cols.id.push(randomUUID());
        cols.hook.push(h.id);
        cols.org.push(e.org_id);
        cols.event.push(e.id);
        cols.uri.push(e.uri);
        cols.body.push(JSON.stringify(event));
      }
    }
    if (cols.id.length) await insertDeliveries(q, cols, now);
    await moveFanOutCursor(q, last, gapSince);
    return taken.length;
  });
}
