/** The outbox writer: call inside the transaction that makes the change the event reports. */
import { randomUUID } from 'node:crypto';
import type { HistoryData, HistoryOperation } from '../../shared/contract/history.ts';
import { EVENT_CATALOGUE, eventUri, type EventSource } from '../../shared/events.ts';
import type { Queryable } from './db.ts';
import { historyView, type OutboxSource } from './eventHistory.ts';

export type { OutboxSource } from './eventHistory.ts';

export interface NewEvent {
  orgId: string;
  source: OutboxSource;
  operation: string;
  /** The item or group id, username, role id, webhook, task or collaboration id the event is about. */
  subjectId: string;
  actor: { userId: string; username: string } | null;
  /** The webhook payload's properties (unchanged by history). */
  properties?: Record<string, unknown>;
  when: number;
  /**
   * How history shows the event (docs/history.md): the service operation (derived from source and
   * operation when absent), the target's owner and title at the time, and what changed. `data`
   * defaults to `properties`. Never a password, token or secret here.
   */
  history?: { op?: HistoryOperation; owner?: string | null; title?: string | null; data?: HistoryData };
}

const COLUMNS = 'id, org_id, uri, source, operation, subject_id, user_id, username, properties, created, id_type, action, op, owner, title, data';

function uriOf(e: NewEvent): string {
  return Object.hasOwn(EVENT_CATALOGUE, e.source) ? eventUri(e.source as EventSource, e.subjectId, e.operation) : `/${e.source}/${e.subjectId}/${e.operation}`;
}

/** One outbox row, in COLUMNS order. */
function eventRow(e: NewEvent): unknown[] {
  const view = historyView(e.source, e.operation, e.history?.op);
  const data = e.history?.data ?? e.properties ?? {};
  return [
    randomUUID(),
    e.orgId,
    uriOf(e),
    e.source,
    e.operation,
    e.subjectId,
    e.actor?.userId ?? null,
    e.actor?.username ?? null,
    JSON.stringify(e.properties ?? {}),
    e.when,
    view.idType,
    view.action,
    view.op,
    e.history?.owner ?? null,
    e.history?.title ?? null,
    JSON.stringify(data),
  ];
}

/**
 * Events this process has written so far (counted at the insert, committed or not): a request during
 * which the count moved may have committed some, and only then is the webhook dispatcher woken
 * (webhooks/routes.ts) — an upload's parts, which write none, leave it asleep.
 */
let recordedHere = 0;
export const eventsRecordedHere = (): number => recordedHere;

export async function recordEvent(q: Queryable, e: NewEvent): Promise<void> {
  recordedHere++;
  await q.query(`INSERT INTO events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`, eventRow(e));
}

/** Several events in one statement: the rows recordEvent would write, one per event (bulk changes). */
export async function recordEvents(q: Queryable, events: readonly NewEvent[]): Promise<void> {
  if (!events.length) return;
  recordedHere += events.length;
  const rows = events.map(eventRow);
  const column = (i: number) => rows.map((r) => r[i]);
  await q.query(
    `INSERT INTO events (${COLUMNS})
     SELECT id, org_id, uri, source, operation, subject_id, user_id, username, properties::jsonb, created, id_type, action, op, owner, title, data::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[],
                   $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
         AS e (id, org_id, uri, source, operation, subject_id, user_id, username, properties, created, id_type, action, op, owner, title, data)`,
    COLUMNS.split(', ').map((_, i) => column(i)),
  );
}
