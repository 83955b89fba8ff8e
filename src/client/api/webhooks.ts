/** Organization webhooks, their deliveries and settings, and the service webhooks of federated servers. */
import type {
  ServiceWebhookRecord,
  WebhookAttemptRecord,
  WebhookConfig,
  WebhookDeliverySummary,
  WebhookRecord,
  WebhookSettings,
} from '../../shared/contract/webhooks.ts';
import { request, type RequestOptions } from './request.ts';
import type { PageEnvelope, PagingParams } from './types.ts';

export type { ServiceWebhookRecord, WebhookAttemptRecord, WebhookConfig, WebhookRecord, WebhookSettings };

type ReadOptions = Pick<RequestOptions, 'signal'>;

/** A webhook as the list answers it: the record plus how its deliveries are going (local portal). */
export type WebhookListEntry = WebhookRecord & Partial<WebhookDeliverySummary>;

export interface WebhookPage extends PageEnvelope {
  webhooks: WebhookListEntry[];
}

export interface WebhookAttemptPage extends PageEnvelope {
  WebhookStatus: WebhookAttemptRecord[];
}

export interface WebhookInput {
  name: string;
  url: string;
  /** Absent keeps the stored secret on update; "" removes it. */
  secret?: string;
  config?: WebhookConfig;
  /** Event URIs; `['/']` is every event. */
  events: string[];
}

const seg = encodeURIComponent;
const base = (orgId: string) => `portals/${seg(orgId)}/webhooks`;
const hookPath = (orgId: string, id: string) => `${base(orgId)}/${seg(id)}`;

/** `GET portals/<orgId>/webhooks` (paged, with nextStart). */
export function listWebhooks(orgId: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<WebhookPage> {
  return request<WebhookPage>(base(orgId), { start: params.start ?? 1, num: params.num ?? 100 }, { ...options, method: 'GET' });
}

export function getWebhook(orgId: string, id: string, options: ReadOptions = {}): Promise<WebhookRecord> {
  return request<WebhookRecord>(hookPath(orgId, id), {}, { ...options, method: 'GET' });
}

/**
 * `POST …/createWebhook`: `changes=allChanges` when the events are `['/']`. This portal answers the
 * id and the secret (once); the documented answer may be only {success}, so then the new webhook is
 * found by its name in the list, as the ArcGIS API for Python does, and the secret is the one sent.
 */
export async function createWebhook(orgId: string, input: WebhookInput): Promise<{ success: boolean; id: string; name: string; secret: string }> {
  const all = input.events.length === 1 && input.events[0] === '/';
  const answer = await request<{ success: boolean; id?: string; name?: string; secret?: string }>(
    `${base(orgId)}/createWebhook`,
    {
      name: input.name,
      url: input.url,
      secret: input.secret,
      config: input.config,
      changes: all ? 'allChanges' : 'manualChanges',
      events: all ? undefined : input.events,
    },
    { method: 'POST' },
  );
  const secret = answer.secret ?? input.secret ?? '';
  if (answer.id) return { success: answer.success, id: answer.id, name: answer.name ?? input.name, secret };
  const made = (await listWebhooks(orgId, { num: 100 })).webhooks.find((w) => w.name === input.name);
  return { success: answer.success, id: made?.id ?? '', name: input.name, secret };
}

/** `POST …/<id>/update`: name, url and events always; secret only when it changes. */
export function updateWebhook(orgId: string, id: string, input: WebhookInput): Promise<{ success: boolean }> {
  return request(
    `${hookPath(orgId, id)}/update`,
    { name: input.name, url: input.url, secret: input.secret, config: input.config, events: input.events },
    { method: 'POST' },
  );
}

export function deleteWebhook(orgId: string, id: string): Promise<{ success: boolean }> {
  return request(`${hookPath(orgId, id)}/delete`, {}, { method: 'POST' });
}

export function setWebhookActive(orgId: string, id: string, active: boolean): Promise<{ success: boolean }> {
  return request(`${hookPath(orgId, id)}/${active ? 'activate' : 'deactivate'}`, {}, { method: 'POST' });
}

/** The documented text form of `invokedTimestamp` ("2019-01-23 14:26:44.644"), read as UTC. */
function epochOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const t = Date.parse(/^\d{4}-\d{2}-\d{2} /.test(value) ? `${value.replace(' ', 'T')}Z` : value);
    if (!Number.isNaN(t)) return t;
  }
  return 0;
}

/**
 * A notificationStatus entry as the console reads it. Other portals answer only the documented
 * fields (id, isInvoked, invokedTimestamp as text, responseText, payload); the rest get defaults.
 */
export function normalizeAttempt(raw: Partial<WebhookAttemptRecord> & Record<string, unknown>, index: number): WebhookAttemptRecord {
  const isInvoked = typeof raw.isInvoked === 'boolean' ? raw.isInvoked : raw.responseStatus != null;
  const responseText = typeof raw.responseText === 'string' ? raw.responseText : (raw.responseBody ?? '');
  return {
    ...raw,
    id: raw.id ?? '',
    isInvoked,
    responseText,
    deliveryId: raw.deliveryId ?? `${raw.id ?? 'attempt'}-${index}`,
    eventId: raw.eventId ?? '',
    event: raw.event ?? '',
    attempt: raw.attempt ?? 1,
    invokedTimestamp: epochOf(raw.invokedTimestamp),
    requestHeaders: raw.requestHeaders ?? {},
    payload: raw.payload ?? '',
    responseStatus: raw.responseStatus ?? null,
    responseBody: raw.responseBody ?? responseText,
    error: raw.error ?? null,
    durationMs: raw.durationMs ?? 0,
    success: raw.success ?? isInvoked,
    deliveryState: raw.deliveryState ?? (isInvoked ? 'delivered' : 'failed'),
    nextAttemptAt: typeof raw.nextAttemptAt === 'number' ? raw.nextAttemptAt : null,
  };
}

/** `…/<id>/notificationStatus`: every attempt, newest first. */
export async function listWebhookAttempts(orgId: string, id: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<WebhookAttemptPage> {
  const page = await request<WebhookAttemptPage>(
    `${hookPath(orgId, id)}/notificationStatus`,
    { start: params.start ?? 1, num: params.num ?? 25 },
    { ...options, method: 'GET' },
  );
  return { ...page, WebhookStatus: (page.WebhookStatus ?? []).map((a, i) => normalizeAttempt(a as WebhookAttemptRecord & Record<string, unknown>, i)) };
}

/** Sends a finished delivery again, with the same id (local operation). */
export function redeliverWebhook(orgId: string, id: string, deliveryId: string): Promise<{ success: boolean }> {
  return request(`${hookPath(orgId, id)}/notificationStatus/${seg(deliveryId)}/redeliver`, {}, { method: 'POST' });
}

/** Queues a synthetic `/webhooks/test` event to this webhook (local operation). */
export function sendWebhookTest(orgId: string, id: string): Promise<{ success: boolean; deliveryId: string }> {
  return request(`${hookPath(orgId, id)}/test`, {}, { method: 'POST' });
}

export function getWebhookSettings(orgId: string, options: ReadOptions = {}): Promise<WebhookSettings> {
  return request<WebhookSettings>(`${base(orgId)}/settings`, {}, { ...options, method: 'GET' });
}

export function updateWebhookSettings(orgId: string, settings: Partial<WebhookSettings>): Promise<{ success: boolean }> {
  return request(`${base(orgId)}/settings/update`, { ...settings }, { method: 'POST' });
}

/** `POST …/webhooks/listServiceWebhooks` (optional owner filter) → {webhooks}. */
export function listServiceWebhooks(
  orgId: string,
  params: { username?: string } = {},
  options: ReadOptions = {},
): Promise<{ webhooks: ServiceWebhookRecord[] }> {
  return request(`${base(orgId)}/listServiceWebhooks`, { username: params.username || undefined }, { ...options, method: 'POST' });
}
