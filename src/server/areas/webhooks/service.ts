/**
 * Organization webhook rules (spec §2, §4.3, §6; facts §3.3, §6). Only administrators of the
 * organization holding portal:admin:manageWebhooks manage its webhooks; another organization's
 * administrators get 403.
 *
 * Local choices (documented in docs/rest-operations.md and docs/webhooks.md):
 * - The secret is stored and shown once, in the createWebhook answer; records show "" when there
 *   is none and "********" when there is one. An update that sends "********" (or no secret)
 *   keeps the stored secret; an update that sends "" removes it.
 * - Event URIs are checked against the catalogue (src/shared/events.ts); a URI naming a specific
 *   item, group or username must name one in this organization. A 400 names every bad URI.
 * - The payload URL must pass the outbound guard (http/https, no private addresses unless
 *   OUTBOUND_ALLOW lists them); it is not probed.
 */
import { randomUUID } from 'node:crypto';
import { SECRET_MASK, WEBHOOK_SETTINGS_LIMITS, type WebhookConfig, type WebhookRecord, type WebhookSettings } from '../../../shared/contract/webhooks.ts';
import type { HistoryData, HistoryOperation } from '../../../shared/contract/history.ts';
import { ALL_EVENTS, parseEventUri, TEST_EVENT_URI } from '../../../shared/events.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { orgTarget } from '../../http/target.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { checkOutboundUrl, OutboundRefused } from '../../http/outbound.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { hexId } from '../../store/ids.ts';
import { raise } from '../../core/signals.ts';
import {
  deleteWebhookRow,
  eventSubjectExists,
  findWebhook,
  insertTestDelivery,
  insertWebhook,
  lockDeliveryState,
  lockWebhook,
  readSettings,
  requeueDelivery,
  setActive,
  updateWebhookRow,
  writeSettings,
  type WebhookRow,
} from './repo.ts';

/**
 * The delivery queue as the dispatcher (jobs/webhooks) works it: fan-out of the outbox, claims under
 * a lease, each attempt's outcome, and the deactivation policy a failure applies.
 */
export { applyDeactivationPolicy, deactivate } from './deactivation.ts';
export {
  claimDueDeliveries,
  dueOrExpiredDeliveries,
  failDelivery,
  logAttempt,
  nextDeliveryDueAt,
  recordSuccesses,
  releaseExpiredDeliveries,
  retryDeliveryAt,
  vacuumDeliveryTables,
  type ClaimedDeliveryRow,
  type SuccessfulAttempt,
} from './repo/deliveries.ts';
/** What the retention sweeps (jobs/retention.ts) remove of finished deliveries and fanned-out events. */
export { allWebhookIds, deleteDeliveriesBeyond, deleteDeliveriesFinishedBefore, deleteFannedOutEvents, undeliveredFrom } from './repo/retention.ts';
export {
  activeWebhooksOf,
  insertDeliveries,
  lockFanOutCursor,
  moveFanOutCursor,
  outboxAfter,
  outboxHasNew,
  type NewDeliveries,
  type OutboxRow,
} from './repo/fanOut.ts';

/** What the operations' list and read answers take from the repository as it is. */
export { deliveryStats, listAttempts, listWebhooks } from './repo.ts';

/**
 * What every organization webhook operation acts on: the organization in the path, decided by
 * operation() with its entry of WEBHOOK_OPERATIONS (shared/contract/webhooks.ts)
 * before any handler runs, so the functions below take their `orgId` as authorized.
 */
export const WEBHOOK_ORG = orgTarget({ otherOrg: 'Webhooks of another organization cannot be managed.' });

export function toWebhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    accountId: row.org_id,
    name: row.name,
    payloadUrl: row.payload_url,
    secret: row.secret ? SECRET_MASK : '',
    isActive: row.is_active,
    config: row.config,
    ownerId: row.owner_id,
    created: row.created,
    modified: row.modified,
    events: row.events,
    deactivationReason: row.is_active ? null : (row.deactivated_reason ?? null),
    deactivatedAt: row.is_active ? null : (row.deactivated_at ?? null),
  };
}

export async function getWebhook(q: Queryable, orgId: string, id: string): Promise<WebhookRow> {
  const row = await findWebhook(q, orgId, id);
  if (!row) throw webhookNotFound(id);
  return row;
}

export const webhookNotFound = (id: string) => new ApiError(404, `Webhook '${id}' does not exist.`, [`Webhook '${id}' does not exist.`]);

async function checkUrl(ctx: PortalContext, url: string): Promise<string> {
  try {
    return (await checkOutboundUrl(url, ctx.config)).url.toString();
  } catch (err) {
    if (err instanceof OutboundRefused) throw badParam('url', err.message);
    throw err;
  }
}

/** The events, validated: catalogue first, then that named subjects exist in the organization. */
export async function validateEvents(q: Queryable, orgId: string, events: string[]): Promise<string[]> {
  const unique = [...new Set(events)];
  if (!unique.length) throw badParam('events', 'must name at least one event URI');
  const bad: string[] = [];
  for (const uri of unique) {
    const parsed = parseEventUri(uri);
    if (parsed.kind === 'invalid') {
      bad.push(`'${uri}' ${parsed.reason}`);
      continue;
    }
    if (parsed.kind !== 'subject') continue;
    if (!(await eventSubjectExists(q, orgId, parsed.source, parsed.subject)))
      bad.push(
        `'${uri}' names ${parsed.source === 'user' ? 'a user' : `an ${parsed.source === 'item' ? 'item' : 'group'}`} '${parsed.subject}' that does not exist in this organization`,
      );
  }
  if (bad.length) throw new ApiError(400, 'Invalid event URIs.', bad, undefined, { events: bad.join('; ') });
  return unique;
}

export interface CreateInput {
  name: string;
  url: string;
  secret?: string;
  config?: WebhookConfig;
  changes: 'allChanges' | 'manualChanges';
  events?: string[];
}

/** The fields whose value differs, before and after. */
function diff(was: Record<string, unknown>, now: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const k of Object.keys(now)) {
    if (JSON.stringify(was[k]) === JSON.stringify(now[k])) continue;
    before[k] = was[k];
    after[k] = now[k];
  }
  return { before, after };
}

/** A webhook change in the organization's history (idType w; never the secret). */
async function recordWebhookEvent(
  q: Queryable,
  caller: Caller,
  orgId: string,
  id: string,
  op: HistoryOperation,
  title: string,
  data: HistoryData,
  now: number,
): Promise<void> {
  await recordEvent(q, {
    orgId,
    source: 'webhook',
    operation: op,
    subjectId: id,
    actor: actorOf(caller),
    when: now,
    history: { op, title, data },
  });
}

export async function createWebhook(ctx: PortalContext, caller: Caller, orgId: string, p: CreateInput) {
  const url = await checkUrl(ctx, p.url);
  if (p.changes === 'manualChanges' && !p.events?.length) throw badParam('events', 'is required when changes is manualChanges');
  const now = ctx.clock.now();
  const id = hexId();
  const secret = p.secret ?? '';
  await ctx.db.tx(async (q) => {
    const events = p.changes === 'allChanges' ? [ALL_EVENTS] : await validateEvents(q, orgId, p.events ?? []);
    await insertWebhook(q, {
      id,
      org_id: orgId,
      name: p.name,
      payload_url: url,
      secret,
      is_active: true,
      config: p.config ?? {},
      events,
      owner_id: caller.userId,
      activated: now,
      created: now,
      modified: now,
    });
    const after = { name: p.name, payloadUrl: url, config: p.config ?? {}, events, isActive: true, secret: secret ? 'set' : 'none' };
    await recordWebhookEvent(q, caller, orgId, id, 'createWebhook', p.name, { after }, now);
  });
  // The secret is shown here, once.
  return { success: true, id, name: p.name, secret };
}

export interface UpdateInput {
  name: string;
  url: string;
  secret?: string;
  config?: WebhookConfig;
  events: string[];
}

export async function updateWebhook(ctx: PortalContext, caller: Caller, orgId: string, id: string, p: UpdateInput) {
  const url = await checkUrl(ctx, p.url);
  await ctx.db.tx(async (q) => {
    const row = await lockWebhook(q, orgId, id);
    if (!row) throw webhookNotFound(id);
    const events = await validateEvents(q, orgId, p.events);
    const secret = p.secret === undefined || p.secret === SECRET_MASK ? row.secret : p.secret;
    const now = ctx.clock.now();
    await updateWebhookRow(q, id, { name: p.name, payload_url: url, secret, config: p.config ?? row.config, events, modified: now });
    const change = diff(
      { name: row.name, payloadUrl: row.payload_url, config: row.config, events: row.events },
      { name: p.name, payloadUrl: url, config: p.config ?? row.config, events },
    );
    // Never the secret itself: only that it changed.
    if (secret !== row.secret) [change.before.secret, change.after.secret] = ['changed', 'changed'];
    await recordWebhookEvent(q, caller, orgId, id, 'updateWebhook', p.name, change, now);
  });
  return { success: true };
}

export async function deleteWebhook(ctx: PortalContext, caller: Caller, orgId: string, id: string) {
  await ctx.db.tx(async (q) => {
    const row = await lockWebhook(q, orgId, id);
    if (!row) throw webhookNotFound(id);
    await deleteWebhookRow(q, id);
    const before = { name: row.name, payloadUrl: row.payload_url, config: row.config, events: row.events, isActive: row.is_active };
    await recordWebhookEvent(q, caller, orgId, id, 'deleteWebhook', row.name, { before }, ctx.clock.now());
  });
  return { success: true };
}

/** Activate also restarts the deactivation policy's count (earlier failures no longer count). */
export async function setWebhookActive(ctx: PortalContext, caller: Caller, orgId: string, id: string, active: boolean) {
  await ctx.db.tx(async (q) => {
    const row = await lockWebhook(q, orgId, id);
    if (!row) throw webhookNotFound(id);
    await setActive(q, id, active, ctx.clock.now(), `Deactivated by ${caller.username}.`);
    const change = { before: { isActive: row.is_active }, after: { isActive: active } };
    await recordWebhookEvent(q, caller, orgId, id, active ? 'activateWebhook' : 'deactivateWebhook', row.name, change, ctx.clock.now());
  });
  if (active) raise('webhookWorkQueued');
  return { success: true };
}

export async function webhookSettings(q: Queryable, orgId: string): Promise<WebhookSettings> {
  const row = await readSettings(q, orgId);
  return {
    notificationAttempts: row?.notification_attempts ?? WEBHOOK_SETTINGS_LIMITS.notificationAttempts.default,
    notificationTimeOutInSeconds: row?.timeout_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default,
    notificationElapsedTimeInSeconds: row?.interval_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.default,
  };
}

export async function updateWebhookSettings(ctx: PortalContext, caller: Caller, orgId: string, p: Partial<WebhookSettings>) {
  await ctx.db.tx(async (q) => {
    const current = await webhookSettings(q, orgId);
    const s = { ...current, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) };
    await recordWebhookEvent(q, caller, orgId, orgId, 'updateWebhookSettings', 'Webhook settings', diff({ ...current }, { ...s }), ctx.clock.now());
    await writeSettings(q, orgId, {
      notification_attempts: s.notificationAttempts,
      timeout_seconds: s.notificationTimeOutInSeconds,
      interval_seconds: s.notificationElapsedTimeInSeconds,
    });
  });
  return { success: true };
}

/** A synthetic `/webhooks/test` event, delivered to this webhook like any other (a local operation). */
export async function sendTestEvent(ctx: PortalContext, caller: Caller, orgId: string, id: string) {
  const now = ctx.clock.now();
  const deliveryId = randomUUID();
  await ctx.db.tx(async (q) => {
    const row = await lockWebhook(q, orgId, id);
    if (!row) throw webhookNotFound(id);
    const eventId = randomUUID();
    const event = { userId: caller.userId, username: caller.username, when: now, operation: 'test', source: 'webhook', id: row.id, properties: {} };
    await insertTestDelivery(q, { id: deliveryId, webhookId: row.id, orgId, eventId, eventUri: TEST_EVENT_URI, event, now });
  });
  raise('webhookWorkQueued');
  return { success: true, deliveryId };
}

/**
 * Send one delivery again (a local operation): a finished delivery (delivered or failed) becomes
 * due now with a fresh round of attempts; it keeps its id, so the receiver sees the same
 * webhook-id. A delivery still pending or running is left as it is.
 */
export async function redeliver(ctx: PortalContext, orgId: string, id: string, deliveryId: string) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    if (!(await lockWebhook(q, orgId, id))) throw webhookNotFound(id);
    const d = await lockDeliveryState(q, id, deliveryId);
    if (!d) throw new ApiError(404, `Delivery '${deliveryId}' does not exist.`, [`Delivery '${deliveryId}' does not exist.`]);
    if (d.state === 'pending' || d.state === 'running')
      throw new ApiError(400, `Delivery '${deliveryId}' is still ${d.state}.`, [`Delivery '${deliveryId}' is still ${d.state}.`]);
    await requeueDelivery(q, deliveryId, now);
  });
  raise('webhookWorkQueued');
  return { success: true };
}
