/** Changing webhooks; each mutation declares the webhook reads of the organization stale. */
import { useMutation, type Query } from '@tanstack/react-query';
import {
  createWebhook,
  deleteWebhook,
  redeliverWebhook,
  sendWebhookTest,
  setWebhookActive,
  updateWebhook,
  updateWebhookSettings,
  type WebhookInput,
  type WebhookSettings,
} from '../../api/index.ts';
import { webhookKeys } from '../../api/queries/webhooks.ts';

const refreshes = (orgId: string) => ({ invalidates: [webhookKeys.all(orgId)] });

export function useCreateWebhook(orgId: string) {
  return useMutation({ mutationFn: (input: WebhookInput) => createWebhook(orgId, input), meta: refreshes(orgId) });
}

export function useUpdateWebhook(orgId: string, id: string) {
  return useMutation({ mutationFn: (input: WebhookInput) => updateWebhook(orgId, id, input), meta: refreshes(orgId) });
}

export function useDeleteWebhook(orgId: string) {
  return useMutation({
    mutationFn: (id: string) => deleteWebhook(orgId, id),
    // The deleted webhook itself is not read again.
    meta: { invalidates: (id: string) => [{ queryKey: webhookKeys.all(orgId), predicate: (q: Query) => q.queryKey[3] !== id }] },
  });
}

export function useSetWebhookActive(orgId: string, id: string) {
  return useMutation({ mutationFn: (active: boolean) => setWebhookActive(orgId, id, active), meta: refreshes(orgId) });
}

export function useRedeliver(orgId: string, id: string) {
  return useMutation({ mutationFn: (deliveryId: string) => redeliverWebhook(orgId, id, deliveryId), meta: refreshes(orgId) });
}

export function useSendTest(orgId: string, id: string) {
  return useMutation({ mutationFn: () => sendWebhookTest(orgId, id), meta: refreshes(orgId) });
}

export function useUpdateWebhookSettings(orgId: string) {
  return useMutation({ mutationFn: (s: WebhookSettings) => updateWebhookSettings(orgId, s), meta: refreshes(orgId) });
}
