/** Organization webhooks: `portals/<orgId>/webhooks/…` (spec §4.3; facts §3.3). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createWebhookParams,
  DEFAULT_DEACTIVATION_POLICY,
  updateWebhookParams,
  webhookListParams,
  webhookSettingsParams,
  WEBHOOK_OPERATIONS,
  type WebhookAttemptRecord,
  type WebhookDeliverySummary,
} from '../../../shared/contract/webhooks.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { operation, REST } from '../../http/operation.ts';
import { raise } from '../../core/signals.ts';
import { eventsRecordedHere } from '../../store/events.ts';
import {
  createWebhook,
  deleteWebhook,
  deliveryStats,
  getWebhook,
  listAttempts,
  listWebhooks,
  redeliver,
  sendTestEvent,
  setWebhookActive,
  toWebhookRecord,
  updateWebhook,
  updateWebhookSettings,
  WEBHOOK_ORG,
  webhookSettings,
} from './service.ts';

const BASE = `${REST}/portals/:orgId/webhooks`;
const HOOK = `${BASE}/:webhookId`;
const none = z.object({});
const DAY_MS = 86_400_000;
/**
 * The public record of a notification is `id, isInvoked, invokedTimestamp, responseText, payload`;
 * these attempt details are this portal's own.
 */
const NOTIFICATION_EXTRAS = [
  'deliveryId',
  'eventId',
  'event',
  'attempt',
  'requestHeaders',
  'responseStatus',
  'responseBody',
  'error',
  'durationMs',
  'success',
  'deliveryState',
  'nextAttemptAt',
].map((f) => `WebhookStatus.${f}`);

export function webhookRoutes(app: FastifyInstance): void {
  // A POST during which this process wrote outbox events may have committed some: nudge this
  // process's dispatcher (if one runs) to fan them out now rather than at its next poll. A POST that
  // wrote none (each part of an upload) leaves it asleep. Other processes find events by polling.
  // Only a POST's response is watched for its end (as Fastify runs onResponse hooks: on 'finish' or
  // 'error'): an onResponse hook would have Fastify watch every response, each GET's included.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'POST') {
      const atStart = eventsRecordedHere();
      const res = reply.raw;
      const ended = () => {
        res.off('finish', ended).off('error', ended);
        if (eventsRecordedHere() !== atStart) raise('webhookWorkQueued');
      };
      res.on('finish', ended).on('error', ended);
    }
    done();
  });

  operation(app, {
    method: 'read',
    path: BASE,
    authority: WEBHOOK_OPERATIONS.listWebhooks,
    target: WEBHOOK_ORG,
    extras: ['webhooks.lastDelivery', 'webhooks.recentFailures', 'webhooks.deactivationReason', 'webhooks.deactivatedAt'],
    params: webhookListParams,
    handler: async ({ params, portal, target }) => {
      const { total, rows } = await listWebhooks(portal.db, target.orgId, params.start - 1, params.num);
      const now = portal.clock.now();
      // Failures are counted as the deactivation policy counts them: its window, since the last activation.
      const stats = new Map<string, WebhookDeliverySummary>();
      for (const row of rows) {
        const days = row.config.deactivationPolicy?.daysInPast ?? DEFAULT_DEACTIVATION_POLICY.daysInPast;
        const s = (await deliveryStats(portal.db, [row.id], now - days * DAY_MS, row.activated)).get(row.id)!;
        stats.set(row.id, {
          lastDelivery: s.last_at === null ? null : { at: s.last_at, success: !!s.last_success, status: s.last_status },
          recentFailures: s.failed,
        });
      }
      return { webhooks: rows.map((r) => ({ ...toWebhookRecord(r), ...stats.get(r.id) })), ...pageEnvelope(total, params, rows.length) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${BASE}/createWebhook`,
    authority: WEBHOOK_OPERATIONS.createWebhook,
    target: WEBHOOK_ORG,
    params: createWebhookParams,
    handler: ({ caller, params, portal, target }) => createWebhook(portal, caller, target.orgId, params),
  });

  operation(app, {
    method: 'read',
    path: `${BASE}/settings`,
    authority: WEBHOOK_OPERATIONS.webhookSettings,
    target: WEBHOOK_ORG,
    params: none,
    handler: async ({ portal, target }) => {
      return webhookSettings(portal.db, target.orgId);
    },
  });

  operation(app, {
    method: 'write',
    path: `${BASE}/settings/update`,
    authority: WEBHOOK_OPERATIONS.updateWebhookSettings,
    target: WEBHOOK_ORG,
    params: webhookSettingsParams,
    handler: ({ caller, params, portal, target }) => updateWebhookSettings(portal, caller, target.orgId, params),
  });

  operation(app, {
    method: 'read',
    path: HOOK,
    authority: WEBHOOK_OPERATIONS.webhook,
    target: WEBHOOK_ORG,
    extras: ['deactivationReason', 'deactivatedAt'],
    params: none,
    handler: async ({ path, portal, target }) => {
      return toWebhookRecord(await getWebhook(portal.db, target.orgId, path.webhookId));
    },
  });

  operation(app, {
    method: 'write',
    path: `${HOOK}/update`,
    authority: WEBHOOK_OPERATIONS.updateWebhook,
    target: WEBHOOK_ORG,
    params: updateWebhookParams,
    handler: ({ caller, path, params, portal, target }) => updateWebhook(portal, caller, target.orgId, path.webhookId, params),
  });

  operation(app, {
    method: 'write',
    path: `${HOOK}/delete`,
    authority: WEBHOOK_OPERATIONS.deleteWebhook,
    target: WEBHOOK_ORG,
    params: none,
    handler: ({ caller, path, portal, target }) => deleteWebhook(portal, caller, target.orgId, path.webhookId),
  });

  for (const [verb, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    operation(app, {
      method: 'write',
      path: `${HOOK}/${verb}`,
      authority: WEBHOOK_OPERATIONS[active ? 'activateWebhook' : 'deactivateWebhook'],
      target: WEBHOOK_ORG,
      params: none,
      handler: ({ caller, path, portal, target }) => setWebhookActive(portal, caller, target.orgId, path.webhookId, active),
    });
  }

  operation(app, {
    method: 'read',
    path: `${HOOK}/notificationStatus`,
    authority: WEBHOOK_OPERATIONS.webhookNotificationStatus,
    target: WEBHOOK_ORG,
    extras: NOTIFICATION_EXTRAS,
    params: webhookListParams,
    handler: async ({ path, params, portal, target }) => {
      await getWebhook(portal.db, target.orgId, path.webhookId);
      const { total, rows } = await listAttempts(portal.db, path.webhookId, params.start - 1, params.num);
      const WebhookStatus: WebhookAttemptRecord[] = rows.map((r) => ({
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        event: r.event_uri,
        attempt: r.attempt,
        invokedTimestamp: r.at,
        requestHeaders: r.request_headers,
        payload: r.request_body,
        responseStatus: r.status,
        id: path.webhookId,
        isInvoked: r.status !== null,
        responseText: r.response_excerpt,
        responseBody: r.response_excerpt,
        error: r.error,
        durationMs: r.duration_ms,
        success: r.success,
        deliveryState: r.state,
        nextAttemptAt: r.next_attempt_at,
      }));
      return { WebhookStatus, ...pageEnvelope(total, params, rows.length) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${HOOK}/notificationStatus/:deliveryId/redeliver`,
    authority: WEBHOOK_OPERATIONS.redeliverWebhookNotification,
    target: WEBHOOK_ORG,
    localOnly: true,
    params: none,
    handler: ({ path, portal, target }) => redeliver(portal, target.orgId, path.webhookId, path.deliveryId),
  });

  operation(app, {
    method: 'write',
    path: `${HOOK}/test`,
    authority: WEBHOOK_OPERATIONS.testWebhook,
    target: WEBHOOK_ORG,
    localOnly: true,
    params: none,
    handler: ({ caller, path, portal, target }) => sendTestEvent(portal, caller, target.orgId, path.webhookId),
  });
}
