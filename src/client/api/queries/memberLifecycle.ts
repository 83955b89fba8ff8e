/** Query options for the member lifecycle's reads (local extras: enabled only where the portal offers them). */
import { queryOptions } from '@tanstack/react-query';
import { listExpirations, listPolicies, listPolicyRuns, previewPolicy } from '../memberLifecycle.ts';

export const lifecycleKeys = {
  all: ['memberLifecycle'] as const,
  expirations: (orgId: string, usernames?: string[]) => ['memberLifecycle', 'expirations', orgId, usernames ?? null] as const,
  policies: (orgId: string) => ['memberLifecycle', 'policies', orgId] as const,
  preview: (orgId: string, id: string) => ['memberLifecycle', 'preview', orgId, id] as const,
  runs: (orgId: string, id: string) => ['memberLifecycle', 'runs', orgId, id] as const,
};

export const expirationsQuery = (orgId: string, usernames?: string[]) =>
  queryOptions({ queryKey: lifecycleKeys.expirations(orgId, usernames), queryFn: () => listExpirations(orgId, { usernames, num: 10 }) });

export const policiesQuery = (orgId: string) => queryOptions({ queryKey: lifecycleKeys.policies(orgId), queryFn: () => listPolicies(orgId) });

export const previewQuery = (orgId: string, id: string) =>
  queryOptions({ queryKey: lifecycleKeys.preview(orgId, id), queryFn: () => previewPolicy(orgId, id) });

export const runsQuery = (orgId: string, id: string) => queryOptions({ queryKey: lifecycleKeys.runs(orgId, id), queryFn: () => listPolicyRuns(orgId, id) });
