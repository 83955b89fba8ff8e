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
import { WEBHOOK_LIMITS } from './limits.ts';

interface OutboxRow {
  seq: string | number;
  id: string;
  org_id: string;
  uri: string;
  source: string;
  operation: string;
  subject_id: string;
  user_id: string | null;
  username: string | null;
  properties: Record<string, unknown>;
  created: string | number;
}

/** One fan-out transaction; answers how many outbox rows it consumed. */
export async function fanOut(ctx: PortalContext): Promise<number> {
  const wallNow = Date.now();
  // An idle pass only reads: no transaction (and no write) unless the outbox has something new.
  const [pending] = await ctx.db.query(`SELECT 1 FROM events WHERE seq > (SELECT last_seq FROM webhook_cursor WHERE name = 'fanout') LIMIT 1`);
  if (!pending) return 0;
  return ctx.db.tx(async (q) => {
    const [cursor] = await q.query<{ last_seq: string | number; gap_since: string | number | null }>(
      `SELECT last_seq, gap_since FROM webhook_cursor WHERE name = 'fanout' FOR UPDATE`,
    );
    let last = Number(cursor.last_seq);
    const rows = await q.query<OutboxRow>('SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2', [last, WEBHOOK_LIMITS.fanOutBatch]);
    if (!rows.length) return 0;
    const taken: OutboxRow[] = [];
    let gapSince: number | null = null;
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== last + 1) {
        const since = cursor.gap_since === null ? wallNow : Number(cursor.gap_since);
        if (ctx.db.kind !== 'pglite' && wallNow - since < WEBHOOK_LIMITS.gapGraceMs) {
          gapSince = since;
          break;
        }
      }
      taken.push(row);
      last = seq;
    }
    const orgs = [...new Set(taken.map((r) => r.org_id))];
    const hooks = orgs.length
      ? await q.query<{ id: string; org_id: string; events: string[]; created: string | number }>(
          'SELECT id, org_id, events, created FROM webhooks WHERE is_active AND org_id = ANY($1)',
          [orgs],
        )
      : [];
    const now = ctx.clock.now();
    // Column arrays for one multi-row insert (a statement per delivery costs more than the rows).
    const cols = { id: [] as string[], hook: [] as string[], org: [] as string[], event: [] as string[], uri: [] as string[], body: [] as string[] };
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
    if (cols.id.length) {
      await q.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, org_id, event_id, event_uri, event, state, next_at, created)
         SELECT id, hook, org, ev, uri, body::jsonb, 'pending', $7, $7
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(id, hook, org, ev, uri, body)
         ON CONFLICT (webhook_id, event_id) DO NOTHING`,
        [cols.id, cols.hook, cols.org, cols.event, cols.uri, cols.body, now],
      );
    }
    await q.query(`UPDATE webhook_cursor SET last_seq = $1, gap_since = $2 WHERE name = 'fanout'`, [last, gapSince]);
    return taken.length;
  });
}
