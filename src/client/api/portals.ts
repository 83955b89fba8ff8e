/** The signed-in member and their organization. */
import { request, type RequestOptions } from './request.ts';
import type { Portal, PortalUser } from './types.ts';

type ReadOptions = Pick<RequestOptions, 'signal' | 'portalUrl' | 'token'>;

/** `GET community/self`: the signed-in member's user record, with privileges. */
export function getSelf(options: ReadOptions = {}): Promise<PortalUser> {
  return request<PortalUser>('community/self', {}, { ...options, method: 'GET' });
}

/** `GET portals/self`: the signed-in member's organization (memberCount when they may view members). */
export function getPortal(options: ReadOptions = {}): Promise<Portal> {
  return request<Portal>('portals/self', {}, { ...options, method: 'GET' });
}

/** `POST portals/<orgId>/update`: organization settings; only those sent change. */
export function updatePortal(orgId: string, params: { maxExternalMembersPerGroup?: number }): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`portals/${encodeURIComponent(orgId)}/update`, params, { method: 'POST' });
}
