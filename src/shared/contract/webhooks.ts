/** Organization webhooks (spec §2, §4.3, §6; facts §3.3, §6). */
import { z } from 'zod';
import { commaList, jsonObject, pagingParams, wireInt } from './wire.ts';

/** Delivery settings of an organization (facts §6.4, perf notes §3.6): ranges and defaults. */
export const WEBHOOK_SETTINGS_LIMITS = {
  /** Retries after the first attempt fails (0 = one attempt only). */
  notificationAttempts: { min: 0, max: 5, default: 3 },
  /** Time limit of one delivery attempt. */
  notificationTimeOutInSeconds: { min: 1, max: 60, default: 10 },
  /** Wait before the first retry; each later retry waits twice as long as the one before. */
  notificationElapsedTimeInSeconds: { min: 1, max: 100, default: 5 },
} as const;

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

const name = z.string().trim().min(1, 'is required').max(256, 'must be at most 256 characters');
const url = z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters');
const secret = z.string().max(256, 'must be at most 256 characters');

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
  notificationTimeOutInSeconds: wireInt(WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.min, WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.max).optional(),
  notificationElapsedTimeInSeconds: wireInt(WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.min, WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.max).optional(),
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

/** One delivery attempt, as notificationStatus lists them (newest first). */
export interface WebhookAttemptRecord {
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
}
