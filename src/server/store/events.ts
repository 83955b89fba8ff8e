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

export async function recordEvent(q: Queryable, e: NewEvent): Promise<void> {
  await q.query(
    `INSERT INTO events (id, org_id, uri, source, operation, subject_id, user_id, username, properties, created)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [randomUUID(), e.orgId, eventUri(e.source, e.subjectId, e.operation), e.source, e.operation, e.subjectId, e.actor?.userId ?? null, e.actor?.username ?? null, JSON.stringify(e.properties ?? {}), e.when],
  );
}
