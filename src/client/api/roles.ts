/** Custom roles of the organization. */
import { request, type RequestOptions } from './request.ts';
import type { PageEnvelope, PagingParams } from './types.ts';

export interface RoleRecord {
  id: string;
  name: string;
  description?: string;
  created?: number;
  modified?: number;
  privileges?: string[];
}

export interface RolePage extends PageEnvelope {
  roles: RoleRecord[];
}

/** `GET portals/<orgId>/roles?returnPrivileges=true`: custom roles with their privileges (first 100 by default). */
export function listRoles(orgId: string, params: PagingParams = {}, options: Pick<RequestOptions, 'signal'> = {}): Promise<RolePage> {
  return request<RolePage>(
    `portals/${encodeURIComponent(orgId)}/roles`,
    { returnPrivileges: true, start: params.start ?? 1, num: params.num ?? 100 },
    { ...options, method: 'GET' },
  );
}
