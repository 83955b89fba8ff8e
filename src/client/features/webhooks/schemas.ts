/** The webhook form and the settings form: what they hold, their checks, and the wire values they make. */
import { z } from 'zod';
import { WEBHOOK_SETTINGS_LIMITS, type WebhookRecord, type WebhookSettings } from '../../../shared/contract/webhooks.ts';
import type { WebhookInput } from '../../api/index.ts';
import { ALL_EVENTS, parseEventUri } from '../../../shared/events.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { formatCount, tooLong } from '../../lib/forms.ts';
import { httpUrlSchema } from '../../lib/urls.ts';

/** The policy the portal applies when a webhook has none (facts §6.4). */
export const DEFAULT_POLICY = { numberOfFailures: 5, daysInPast: 5 };

const httpUrl = httpUrlSchema;

/** A count named in its messages: "The number of failed deliveries must be a whole number from 1 to 1,000". */
const count = (what: string, max: number) => {
  const message = `${what} must be a whole number from 1 to ${formatCount(max)}`;
  return z.number({ message }).int(message).min(1, message).max(max, message);
};

export const webhookFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter a name').max(LIMITS.webhookNameChars, tooLong('the name', LIMITS.webhookNameChars)),
    url: httpUrl,
    events: z.array(z.string()).max(200, 'Choose at most 200 events'),
    /** keep: leave the stored secret (edit only); set: use `secret`; none: no secret. */
    secretMode: z.enum(['keep', 'set', 'none']),
    secret: z.string().max(LIMITS.webhookSecretChars, tooLong('the secret', LIMITS.webhookSecretChars)),
    numberOfFailures: count('The number of failed deliveries', 1000),
    daysInPast: count('The number of days', 365),
  })
  .superRefine((v, ctx) => {
    if (!v.events.length) ctx.addIssue({ code: 'custom', path: ['events'], message: 'Choose at least one event' });
    for (const uri of v.events) {
      const parsed = parseEventUri(uri);
      if (parsed.kind === 'invalid') ctx.addIssue({ code: 'custom', path: ['events'], message: `'${uri}' ${parsed.reason}` });
    }
    if (v.secretMode === 'set' && !v.secret) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'Enter a secret, or choose no secret' });
  });

export type WebhookFormInput = z.input<typeof webhookFormSchema>;
export type WebhookFormValues = z.output<typeof webhookFormSchema>;
export const WEBHOOK_FORM_FIELDS = ['name', 'url', 'events', 'secret', 'numberOfFailures', 'daysInPast'] as const;

export const EMPTY_WEBHOOK: WebhookFormInput = {
  name: '',
  url: '',
  events: [],
  secretMode: 'set',
  secret: '',
  numberOfFailures: DEFAULT_POLICY.numberOfFailures,
  daysInPast: DEFAULT_POLICY.daysInPast,
};

export function webhookToForm(w: WebhookRecord): WebhookFormInput {
  const policy = w.config.deactivationPolicy ?? DEFAULT_POLICY;
  return {
    name: w.name,
    url: w.payloadUrl,
    events: w.events,
    secretMode: w.secret ? 'keep' : 'none',
    secret: '',
    numberOfFailures: Number(policy.numberOfFailures),
    daysInPast: Number(policy.daysInPast),
  };
}

/** The form's values as the portal wants them. On edit, "keep" sends no secret (the portal keeps it). */
export function formToInput(v: WebhookFormValues, existing?: WebhookRecord): WebhookInput {
  // "none" removes a stored secret; on create it simply sends none.
  const secret = v.secretMode === 'set' ? v.secret : v.secretMode === 'none' && existing?.secret ? '' : undefined;
  return {
    name: v.name,
    url: v.url,
    ...(secret !== undefined ? { secret } : {}),
    config: { ...(existing?.config ?? {}), deactivationPolicy: { numberOfFailures: v.numberOfFailures, daysInPast: v.daysInPast } },
    events: v.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : v.events,
  };
}

/** A random secret for receivers: 32 bytes, base64url (Standard Webhooks asks for 24–64 bytes). */
export function generateSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

const L = WEBHOOK_SETTINGS_LIMITS;
const ranged = (what: string, r: { min: number; max: number }) => {
  const message = `${what} must be a whole number from ${formatCount(r.min)} to ${formatCount(r.max)}`;
  return z.number({ message }).int(message).min(r.min, message).max(r.max, message);
};

export const settingsFormSchema = z.object({
  notificationAttempts: ranged('Retries', L.notificationAttempts),
  notificationTimeOutInSeconds: ranged('The time limit', L.notificationTimeOutInSeconds),
  notificationElapsedTimeInSeconds: ranged('The first wait', L.notificationElapsedTimeInSeconds),
}) satisfies z.ZodType<WebhookSettings>;
export type SettingsFormValues = z.output<typeof settingsFormSchema>;
export const SETTINGS_FIELDS = ['notificationAttempts', 'notificationTimeOutInSeconds', 'notificationElapsedTimeInSeconds'] as const;
