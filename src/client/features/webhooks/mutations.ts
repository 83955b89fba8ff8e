/** Changing webhooks; each mutation refreshes the webhook reads of the organization. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { webhookKeys } from './queries.ts';

function useRefresh(orgId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(orgId) });
}

export function useCreateWebhook(orgId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: (input: WebhookInput) => createWebhook(orgId, input), onSuccess: refresh });
}

export function useUpdateWebhook(orgId: string, id: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: (input: WebhookInput) => updateWebhook(orgId, id, input), onSuccess: refresh });
}

export function useDeleteWebhook(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteWebhook(orgId, id),
    // The deleted webhook itself is not read again.
    onSuccess: (_r, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.all(orgId), predicate: (q) => q.queryKey[3] !== id }),
  });
}

export function useSetWebhookActive(orgId: string, id: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: (active: boolean) => setWebhookActive(orgId, id, active), onSuccess: refresh });
}

export function useRedeliver(orgId: string, id: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: (deliveryId: string) => redeliverWebhook(orgId, id, deliveryId), onSuccess: refresh });
}

export function useSendTest(orgId: string, id: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: () => sendWebhookTest(orgId, id), onSuccess: refresh });
}

export function useUpdateWebhookSettings(orgId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({ mutationFn: (s: WebhookSettings) => updateWebhookSettings(orgId, s), onSuccess: refresh });
}
