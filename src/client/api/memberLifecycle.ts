/**
 * Member lifecycle, this portal's local extras (docs/rest-operations.md, "Member lifecycle"):
 * expirations and inactivity policies. Only call these when portals/self says `localExtras`.
 */
import type { ExpirationResult, ExpirationsAnswer, InactivityPolicy, PolicyAction, PolicyPreview, PolicyRun } from '../../shared/contract/memberLifecycle.ts';
import { request } from './request.ts';

export type { ExpirationsAnswer, InactivityPolicy, PolicyAction, PolicyPreview, PolicyRun };

const seg = encodeURIComponent;
const base = (orgId: string) => `portals/${seg(orgId)}/memberLifecycle`;
const policyPath = (orgId: string, id: string) => `${base(orgId)}/policies/${seg(id)}`;

export interface PolicyInput {
  title: string;
  warnAfterDays: number;
  actAfterDays: number;
  action: PolicyAction;
  role?: string;
  userLicenseType?: string;
}

export function setExpiration(orgId: string, usernames: string[], expiration: number): Promise<{ results: ExpirationResult[] }> {
  return request(`${base(orgId)}/setExpiration`, { usernames: usernames.join(','), expiration }, { method: 'POST' });
}

export function clearExpiration(orgId: string, usernames: string[]): Promise<{ results: ExpirationResult[] }> {
  return request(`${base(orgId)}/clearExpiration`, { usernames: usernames.join(',') }, { method: 'POST' });
}

export function listExpirations(orgId: string, q: { num?: number; usernames?: string[] } = {}): Promise<ExpirationsAnswer> {
  return request(`${base(orgId)}/expirations`, { num: q.num ?? 10, usernames: q.usernames?.join(',') }, { method: 'GET' });
}

export function listPolicies(orgId: string): Promise<{ policies: InactivityPolicy[] }> {
  return request(`${base(orgId)}/policies`, {}, { method: 'GET' });
}

export function createPolicy(orgId: string, input: PolicyInput): Promise<{ id: string; policy: InactivityPolicy }> {
  return request(`${base(orgId)}/policies/createPolicy`, { ...input }, { method: 'POST' });
}

export function updatePolicy(orgId: string, id: string, input: PolicyInput): Promise<{ id: string; policy: InactivityPolicy }> {
  return request(`${policyPath(orgId, id)}/update`, { ...input }, { method: 'POST' });
}

export function deletePolicy(orgId: string, id: string): Promise<{ success: boolean }> {
  return request(`${policyPath(orgId, id)}/delete`, {}, { method: 'POST' });
}

export function setPolicyActive(orgId: string, id: string, active: boolean): Promise<{ policy: InactivityPolicy }> {
  return request(`${policyPath(orgId, id)}/${active ? 'enable' : 'disable'}`, {}, { method: 'POST' });
}

export function previewPolicy(orgId: string, id: string): Promise<PolicyPreview> {
  return request(`${policyPath(orgId, id)}/preview`, {}, { method: 'GET' });
}

export function listPolicyRuns(orgId: string, id: string): Promise<{ runs: PolicyRun[] }> {
  return request(`${policyPath(orgId, id)}/runs`, {}, { method: 'GET' });
}

export function undoPolicyRun(orgId: string, id: string, runId: string): Promise<{ results: ExpirationResult[] }> {
  return request(`${policyPath(orgId, id)}/runs/${seg(runId)}/undo`, {}, { method: 'POST' });
}
