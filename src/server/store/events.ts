/** The outbox writer: call inside the transaction that makes the change the event reports. */
import { randomUUID } from 'node:crypto';
import { eventUri, type EventSource } from '../../shared/events.ts';
import type { Queryable } from './db.ts';

export interface NewEvent {
  orgId: string;
  source: EventSource;
  operation: string;
  /** The item or group id, username, or role id the event is about. */
  subjectId: string;
  actor: { userId: string; username: string } | null;
  properties?: Record<string, unknown>;
  when: number;
}

const COLUMNS = 'id, org_id, uri, source, operation, subject_id, user_id, username, properties, created';

/** One outbox row, in COLUMNS order. */
function eventRow(e: NewEvent): unknown[] {
  return [randomUUID(), e.orgId, eventUri(e.source, e.subjectId, e.operation), e.source, e.operation, e.subjectId, e.actor?.userId ?? null, e.actor?.username ?? null, JSON.stringify(e.properties ?? {}), e.when];
}

export async function recordEvent(q: Queryable, e: NewEvent): Promise<void> {
  await q.query(`INSERT INTO events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, eventRow(e));
}

/** Several events in one statement: the rows recordEvent would write, one per event (bulk changes). */
export async function recordEvents(q: Queryable, events: readonly NewEvent[]): Promise<void> {
  if (!events.length) return;
  const rows = events.map(eventRow);
  const column = (i: number) => rows.map((r) => r[i]);
  await q.query(
    `INSERT INTO events (${COLUMNS})
     SELECT id, org_id, uri, source, operation, subject_id, user_id, username, properties::jsonb, created
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[])
         AS e (id, org_id, uri, source, operation, subject_id, user_id, username, properties, created)`,
    COLUMNS.split(', ').map((_, i) => column(i)),
  );
}
