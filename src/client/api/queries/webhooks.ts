/** Webhooks (`portals/<org>/webhooks`): the one key factory and the read options for every webhook read. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getWebhook, getWebhookSettings, listServiceWebhooks, listWebhookAttempts, listWebhooks } from '../webhooks.ts';

export const webhookKeys = {
  all: (orgId: string) => ['webhooks', orgId] as const,
  list: (orgId: string) => ['webhooks', orgId, 'list'] as const,
  one: (orgId: string, id: string) => ['webhooks', orgId, 'detail', id] as const,
  attempts: (orgId: string, id: string) => ['webhooks', orgId, 'detail', id, 'attempts'] as const,
  attemptsPage: (orgId: string, id: string, start: number, num: number) => ['webhooks', orgId, 'detail', id, 'attempts', start, num] as const,
  settings: (orgId: string) => ['webhooks', orgId, 'settings'] as const,
  services: (orgId: string) => ['webhooks', orgId, 'services'] as const,
  servicesOf: (orgId: string, username: string) => ['webhooks', orgId, 'services', username] as const,
};

/** How often open delivery views look again: deliveries happen in the background. */
export const DELIVERY_REFRESH_MS = 3000;

export const webhooksQuery = (orgId: string) =>
  queryOptions({
    queryKey: webhookKeys.list(orgId),
    queryFn: ({ signal }) => listWebhooks(orgId, { start: 1, num: 100 }, { signal }),
    refetchInterval: DELIVERY_REFRESH_MS,
  });

export const webhookQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: webhookKeys.one(orgId, id),
    queryFn: ({ signal }) => getWebhook(orgId, id, { signal }),
    refetchInterval: DELIVERY_REFRESH_MS,
  });

export const webhookAttemptsQuery = (orgId: string, id: string, start: number, num: number) =>
  queryOptions({
    queryKey: webhookKeys.attemptsPage(orgId, id, start, num),
    queryFn: ({ signal }) => listWebhookAttempts(orgId, id, { start, num }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: DELIVERY_REFRESH_MS,
  });

export const webhookSettingsQuery = (orgId: string) =>
  queryOptions({
    queryKey: webhookKeys.settings(orgId),
    queryFn: ({ signal }) => getWebhookSettings(orgId, { signal }),
  });

export const serviceWebhooksQuery = (orgId: string, username: string) =>
  queryOptions({
    queryKey: webhookKeys.servicesOf(orgId, username),
    queryFn: ({ signal }) => listServiceWebhooks(orgId, { username }, { signal }),
    placeholderData: keepPreviousData,
  });
