/** Organization webhooks (spec §2, §4.3, §6; facts §3.3, §6). */
import { z } from 'zod';
import { privileges, type Authority } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { commaList, jsonObject, pagingParams, wireBool, wireInt } from './wire.ts';

/** Delivery settings of an organization (facts §6.4, perf notes §3.6): ranges and defaults. */
export const WEBHOOK_SETTINGS_LIMITS = {
  /** Retries after the first attempt fails (0 = one attempt only). */
  notificationAttempts: { min: 0, max: 5, default: 3 },
  /** Time limit of one delivery attempt. */
  notificationTimeOutInSeconds: { min: 1, max: 60, default: 10 },
  /** Wait before the first retry; each later retry waits twice as long as the one before. */
  notificationElapsedTimeInSeconds: { min: 1, max: 100, default: 5 },
} as const;

/** A webhook without a `config.deactivationPolicy` is deactivated after this many failed deliveries in that many days. */
export const DEFAULT_DEACTIVATION_POLICY = { numberOfFailures: 5, daysInPast: 5 } as const;

/** The value a webhook record shows in place of a stored secret (the secret itself is shown once, on create). */
export const SECRET_MASK = '********';

const positive = wireInt(1, 1_000_000);
export const webhookConfig = z
  .object({
    deactivationPolicy: z
      .object({ numberOfFailures: z.union([z.number(), z.string()]).pipe(positive), daysInPast: z.union([z.number(), z.string()]).pipe(positive) })
      .strict()
      .optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();
export type WebhookConfig = z.output<typeof webhookConfig>;

const name = z.string().trim().min(1, 'is required').max(LIMITS.webhookNameChars, `must be at most ${LIMITS.webhookNameChars} characters`);
const url = z.string().trim().min(1, 'is required').max(LIMITS.urlChars, `must be at most ${LIMITS.urlChars} characters`);
const secret = z.string().max(LIMITS.webhookSecretChars, `must be at most ${LIMITS.webhookSecretChars} characters`);

export const createWebhookParams = z.object({
  name,
  url,
  secret: secret.optional(),
  config: jsonObject(webhookConfig).optional(),
  changes: z.enum(['allChanges', 'manualChanges']).default('manualChanges'),
  events: commaList.optional(),
});

export const updateWebhookParams = z.object({
  name,
  url,
  secret: secret.optional(),
  config: jsonObject(webhookConfig).optional(),
  events: commaList,
});

export const webhookListParams = pagingParams;

export const webhookSettingsParams = z.object({
  notificationAttempts: wireInt(WEBHOOK_SETTINGS_LIMITS.notificationAttempts.min, WEBHOOK_SETTINGS_LIMITS.notificationAttempts.max).optional(),
  notificationTimeOutInSeconds: wireInt(
    WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.min,
    WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.max,
  ).optional(),
  notificationElapsedTimeInSeconds: wireInt(
    WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.min,
    WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.max,
  ).optional(),
});

export interface WebhookSettings {
  notificationAttempts: number;
  notificationTimeOutInSeconds: number;
  notificationElapsedTimeInSeconds: number;
}

export interface WebhookRecord {
  id: string;
  accountId: string;
  name: string;
  payloadUrl: string;
  /** "" when none was set, otherwise SECRET_MASK. */
  secret: string;
  isActive: boolean;
  config: WebhookConfig;
  ownerId: string;
  created: number;
  modified: number;
  events: string[];
  /** Local extra: why the webhook is inactive (its policy, a 410 Gone, or an administrator); null when active. */
  deactivationReason: string | null;
  /** Local extra: when it was deactivated (epoch ms); null when active. */
  deactivatedAt: number | null;
}

/** Local extra of the list: the latest attempt and the failures counted by the deactivation policy's window. */
export interface WebhookDeliverySummary {
  lastDelivery: { at: number; success: boolean; status: number | null } | null;
  /** Failed deliveries within the policy's daysInPast. */
  recentFailures: number;
}

/**
 * One delivery attempt, as notificationStatus lists them (newest first). `id` (the webhook's id),
 * `isInvoked`, `invokedTimestamp`, `responseText` and `payload` are the documented fields
 * ("Notification Status"); the rest are this portal's own. The documented example shows
 * `invokedTimestamp` as text ("2019-01-23 14:26:44.644"); this portal sends epoch ms.
 */
export interface WebhookAttemptRecord {
  id: string;
  /** An HTTP answer came back from the receiver (false for a timeout, a refused connection or a blocked address). */
  isInvoked: boolean;
  /** The receiver's answer (the first 2 KB), as the documented field. */
  responseText: string;
  deliveryId: string;
  eventId: string;
  event: string;
  attempt: number;
  invokedTimestamp: number;
  requestHeaders: Record<string, string>;
  payload: string;
  responseStatus: number | null;
  responseBody: string;
  error: string | null;
  durationMs: number;
  success: boolean;
  /** Where the delivery stands now: pending (a retry is due), running, delivered, failed. */
  deliveryState: string;
  /** Epoch ms when a failed delivery's retry is due: on its latest attempt while the retry waits, else null. */
  nextAttemptAt: number | null;
}

/* ─── Service webhooks of federated servers (spec §2 "Service webhook", §4.4; facts §3.3) ─── */

export const SERVICE_TYPES = ['FeatureServer', 'GPServer'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** Feature-service triggers; `*` is every one. A geoprocessing webhook's only value is `*`. */
export const FEATURE_CHANGE_TYPES = [
  '*',
  'FeaturesCreated',
  'FeaturesUpdated',
  'FeaturesDeleted',
  'FeaturesEdited',
  'AttachmentsCreated',
  'AttachmentsUpdated',
  'AttachmentsDeleted',
  'LayerSchemaChanged',
  'LayerDefinitionChanged',
  'FeatureServiceDefinitionChanged',
] as const;

export const SCHEDULE_FREQUENCIES = ['second', 'minute', 'hour', 'day', 'week', 'month'] as const;
export const SCHEDULE_STATES = ['enabled', 'disabled'] as const;
/** At most this many webhooks on one service (the ArcGIS Online limit per layer). */
export const MAX_WEBHOOKS_PER_SERVICE = 10;

export const scheduleInfo = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(256),
    state: z.enum(SCHEDULE_STATES),
    startAt: z.number().int().min(0),
    recurrenceInfo: z.object({ frequency: z.enum(SCHEDULE_FREQUENCIES), interval: z.number().int().min(1).max(1000) }).strict(),
  })
  .strict();
export type ScheduleInfo = z.output<typeof scheduleInfo>;

const serviceWebhookFields = {
  name,
  changeTypes: commaList
    .pipe(z.array(z.enum(FEATURE_CHANGE_TYPES, { message: `must be among ${FEATURE_CHANGE_TYPES.join(', ')}` })).max(FEATURE_CHANGE_TYPES.length))
    .optional(),
  // Alphanumeric; the mask (an edit re-sending what it was shown) keeps the stored key.
  signatureKey: z
    .string()
    .max(256, 'must be at most 256 characters')
    .regex(/^(?:[A-Za-z0-9]*|\*{8})$/, 'must be alphanumeric')
    .optional(),
  hookUrl: url,
  active: wireBool.optional(),
  contentType: z.enum(['application/json', 'application/x-www-form-urlencoded']).optional(),
  // An empty object (or "{}") means none: what geoprocessing webhooks have.
  scheduleInfo: jsonObject(z.union([scheduleInfo, z.object({}).strict()])).optional(),
  payloadFormat: z.enum(['json', 'pjson']).optional(),
};
export const createServiceWebhookParams = z.object(serviceWebhookFields);
export const editServiceWebhookParams = z.object(serviceWebhookFields);

export const listServiceWebhooksParams = z.object({
  username: z.string().trim().max(128).optional(),
  userName: z.string().trim().max(128).optional(),
});

export const registerServerParams = z.object({
  name: z.string().trim().min(1, 'is required').max(256),
  url,
  adminUrl: url.optional(),
});

export const createServiceParams = z.object({
  serviceName: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(120)
    .regex(/^[A-Za-z0-9_]+$/, 'must be letters, digits and underscores'),
  type: z.enum(SERVICE_TYPES),
  folderName: z
    .string()
    .trim()
    .max(120)
    .regex(/^[A-Za-z0-9_]*$/, 'must be letters, digits and underscores')
    .optional(),
  itemId: z
    .string()
    .trim()
    .regex(/^[a-f0-9]{32}$/, 'must be an item id')
    .optional(),
  /** The member who owns the service (default: the caller). */
  owner: z.string().trim().min(1).max(128).optional(),
});

/** A service webhook as listServiceWebhooks and the server-administration path answer it. */
export interface ServiceWebhookRecord {
  id: string;
  folderName: string;
  serviceName: string;
  serviceType: ServiceType;
  name: string;
  changeTypes: string[];
  /** "" when none was set, otherwise SECRET_MASK (the key is shown once, in the create answer). */
  signatureKey: string;
  hookUrl: string;
  active: boolean;
  contentType: string;
  /** `{}` for geoprocessing webhooks. */
  scheduleInfo: ScheduleInfo | Record<string, never>;
  payloadFormat: string;
  createdTime: number;
  lastUpdatedTime: number;
  owner: string;
  modifiedId: string;
  itemId: string | null;
  /** The same values under the names the facts file records for newer servers. */
  created: number;
  modified: number;
  ownerId: string;
  /** Local extra: the federated server holding the service. */
  serverId: string;
}

export interface FederatedServerRecord {
  id: string;
  name: string;
  url: string;
  adminUrl: string;
  serverRole: string;
  serverType: 'ArcGIS';
  created: number;
}

export interface FederatedServiceRecord {
  folderName: string;
  serviceName: string;
  type: ServiceType;
  itemId: string | null;
  owner: string;
  webhookCount: number;
}

/**
 * Who may call each webhook operation (`portals/<orgId>/webhooks/…`): the organization's members
 * holding manageWebhooks. The service declares its routes with these entries; the console asks
 * the same entries (client lib/can.ts) before offering an action.
 */
export const WEBHOOK_OPERATIONS = {
  listWebhooks: privileges('portal:admin:manageWebhooks'),
  createWebhook: privileges('portal:admin:manageWebhooks'),
  webhookSettings: privileges('portal:admin:manageWebhooks'),
  updateWebhookSettings: privileges('portal:admin:manageWebhooks'),
  webhook: privileges('portal:admin:manageWebhooks'),
  updateWebhook: privileges('portal:admin:manageWebhooks'),
  deleteWebhook: privileges('portal:admin:manageWebhooks'),
  activateWebhook: privileges('portal:admin:manageWebhooks'),
  deactivateWebhook: privileges('portal:admin:manageWebhooks'),
  webhookNotificationStatus: privileges('portal:admin:manageWebhooks'),
  redeliverWebhookNotification: privileges('portal:admin:manageWebhooks'),
  testWebhook: privileges('portal:admin:manageWebhooks'),
  /** The organization's service webhooks (federated servers' own; federation area). */
  listServiceWebhooks: privileges('portal:admin:manageWebhooks'),
} as const satisfies Record<string, Authority>;
