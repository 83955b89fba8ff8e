/**
 * Webhook job 3 of 3, delivery: each attempt POSTs `{info, events:[event]}` through the outbound
 * guard (no redirects: a 3xx is a failure; only 2xx succeeds; the organization's timeout), signed
 * with `x-esriHook-Signature: sha256=<base64 HMAC-SHA256(secret, body)>` when a secret is set, and
 * Standard Webhooks headers `webhook-id` (the delivery id), `webhook-timestamp` (unix seconds of
 * the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256(secret, "<id>.<ts>.<body>")>`.
 * Every attempt is logged in `webhook_attempts` (what notificationStatus lists).
 *
 * A failed attempt is retried `notificationAttempts` times, waiting
 * `notificationElapsedTimeInSeconds` × 2^(retry-1). A 429 or 503 with `Retry-After` waits at
 * least what the receiver asked, up to the settings' longest interval (100 s). After the last,
 * the delivery has failed (see areas/webhooks/deactivation.ts for what that does to the webhook). A 410 Gone
 * means the receiver is gone for good: no retry, and the webhook is deactivated at once.
 */
import { createHmac } from 'node:crypto';
import type { PortalContext } from '../../context.ts';
import { DatabaseUnavailableError } from '../../store/dbInterface.ts';
import { outboundRequest, OutboundRefused } from '../../http/outbound.ts';
import type { ClaimedDelivery } from './claim.ts';
import { applyDeactivationPolicy, deactivate, failDelivery, logAttempt, retryDeliveryAt } from '../../areas/webhooks/service.ts';
import { webhookDispatchOf } from '../../config.ts';
import { WEBHOOK_SETTINGS_LIMITS } from '../../../shared/contract/webhooks.ts';
import { successWriter } from './successWriter.ts';

/** The longest Retry-After honoured: the settings' longest interval between attempts. */
const MAX_RETRY_AFTER_MS = WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.max * 1000;

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64');

/** The signed request of one attempt. */
export function buildRequest(d: Pick<ClaimedDelivery, 'id' | 'webhook_id' | 'name' | 'secret' | 'event'>, portalURL: string, now: number) {
  const body = JSON.stringify({ info: { webhookId: d.webhook_id, webhookName: d.name, portalURL, when: now }, events: [d.event] });
  const timestamp = String(Math.floor(now / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': d.id,
    'webhook-timestamp': timestamp,
  };
  if (d.secret) {
    headers['x-esriHook-Signature'] = `sha256=${hmac(d.secret, body)}`;
    headers['webhook-signature'] = `v1,${hmac(d.secret, `${d.id}.${timestamp}.${body}`)}`;
  }
  return { body, headers };
}

interface AttemptResult {
  status: number | null;
  error: string | null;
  excerpt: string;
  success: boolean;
  /** What a 429 or 503 asked for in Retry-After, in ms. */
  retryAfterMs?: number;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function send(ctx: PortalContext, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  const { responseExcerptBytes } = webhookDispatchOf(ctx.config);
  try {
    const res = await outboundRequest(url, ctx.config, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
      timeoutMs,
      signal,
      keepAlive: true,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size < responseExcerptBytes) chunks.push(chunk);
        size += chunk.length;
        if (size >= responseExcerptBytes) break;
      }
    } catch {
      /* the status decides; a body cut short is kept as far as it came */
    } finally {
      res.body.destroy();
    }
    const excerpt = Buffer.concat(chunks).subarray(0, responseExcerptBytes).toString('utf8');
    const success = res.status >= 200 && res.status < 300;
    const error = success
      ? null
      : res.status >= 300 && res.status < 400
        ? `The receiver answered a redirect (HTTP ${res.status}); redirects are not followed.`
        : `The receiver answered HTTP ${res.status}.`;
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers['retry-after'], Date.now()) : undefined;
    return { status: res.status, error, excerpt, success, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  } catch (err) {
    const message =
      err instanceof OutboundRefused ? err.message : signal.aborted ? `No answer within ${timeoutMs} ms.` : `The request failed: ${(err as Error).message}`;
    return { status: null, error: message, excerpt: '', success: false };
  }
}

/** One attempt of a claimed delivery, and its outcome recorded. */
export async function attemptDelivery(ctx: PortalContext, d: ClaimedDelivery): Promise<boolean> {
  const { settings } = d;
  const now = ctx.clock.now();
  const portalURL = `${ctx.config.tls ? 'https' : 'http'}://${ctx.config.host}:${ctx.config.port}/`;
  const { body, headers } = buildRequest(d, portalURL, now);
  const started = performance.now();
  const result = await send(ctx, d.payload_url, headers, body, settings.notificationTimeOutInSeconds * 1000);
  const duration = Math.round(performance.now() - started);
  const done = ctx.clock.now();
  if (result.success) {
    await recordOutcome(ctx, d, () =>
      successWriter(ctx).write({
        id: d.id,
        webhookId: d.webhook_id,
        attempt: d.attempts,
        at: now,
        headers: JSON.stringify(headers),
        body,
        status: result.status!,
        excerpt: result.excerpt,
        duration,
        done,
      }),
    );
    return true;
  }
  await recordOutcome(ctx, d, () =>
    ctx.db.tx(async (q) => {
      await logAttempt(q, {
        deliveryId: d.id,
        webhookId: d.webhook_id,
        attempt: d.attempts,
        at: now,
        headers: JSON.stringify(headers),
        body,
        status: result.status,
        error: result.error,
        excerpt: result.excerpt,
        duration,
        success: result.success,
      });
      if (result.status === 410) {
        await failDelivery(q, d.id, done);
        await deactivate(q, d.webhook_id, done, 'The receiver answered 410 Gone: the payload URL no longer accepts deliveries.');
      } else if (d.attempts <= settings.notificationAttempts) {
        const backoff = settings.notificationElapsedTimeInSeconds * 1000 * 2 ** (d.attempts - 1);
        const asked = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
        const wait = Math.max(backoff, asked);
        await retryDeliveryAt(q, d.id, done + wait);
      } else {
        await failDelivery(q, d.id, done);
        await applyDeactivationPolicy(q, d.webhook_id, done);
      }
    }),
  );
  return false;
}

/**
 * Records an attempt's outcome, waiting out a database outage while the claim lasts. An outcome
 * that is never written leaves its delivery running, and on PostgreSQL a running delivery under a
 * live lease takes one of its webhook's slots in every process: a whole webhook's worth in flight
 * when the database went down would stall that webhook until the leases ran out (a minute at the
 * default time limit) although the database was back in seconds. Past the lease the delivery is
 * no longer this process's to record: it is sent again (at least once).
 */
async function recordOutcome(ctx: PortalContext, d: ClaimedDelivery, write: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof DatabaseUnavailableError) || ctx.clock.now() + OUTCOME_RETRY_MS >= d.locked_until) throw err;
      await new Promise((r) => setTimeout(r, OUTCOME_RETRY_MS));
    }
  }
}

/** How often an outcome that could not be written is tried again while the database is down. */
const OUTCOME_RETRY_MS = 250;
