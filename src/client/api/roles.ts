/** Custom roles of the organization and their privileges. */
import { request, type RequestOptions } from './request.ts';
import type { PageEnvelope, PagingParams } from './types.ts';

type ReadOptions = Pick<RequestOptions, 'signal'>;

export interface RoleRecord {
  id: string;
  name: string;
  description?: string;
  created?: number;
  modified?: number;
  privileges?: string[];
  /** Built-in roles (Viewer, Data Editor) can be neither changed nor deleted (local portal). */
  builtIn?: boolean;
  /** Members holding the role (local portal). */
  memberCount?: number;
}

export interface RolePage extends PageEnvelope {
  roles: RoleRecord[];
}

const seg = encodeURIComponent;
const rolePath = (orgId: string, roleId: string) => `portals/${seg(orgId)}/roles/${seg(roleId)}`;

/** `GET portals/<orgId>/roles?returnPrivileges=true`: custom roles with their privileges (first 100 by default). */
export function listRoles(orgId: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<RolePage> {
  return request<RolePage>(
    `portals/${seg(orgId)}/roles`,
    { returnPrivileges: true, start: params.start ?? 1, num: params.num ?? 100 },
    { ...options, method: 'GET' },
  );
}

/** `GET portals/<orgId>/roles/<id>` → {id, name, description, created, modified}. */
export function getRole(orgId: string, roleId: string, options: ReadOptions = {}): Promise<RoleRecord> {
  return request<RoleRecord>(rolePath(orgId, roleId), {}, { ...options, method: 'GET' });
}

/** `GET portals/<orgId>/roles/<id>/privileges` → {id, privileges}. */
export function getRolePrivileges(orgId: string, roleId: string, options: ReadOptions = {}): Promise<{ id: string; privileges: string[] }> {
  return request<{ id: string; privileges: string[] }>(`${rolePath(orgId, roleId)}/privileges`, {}, { ...options, method: 'GET' });
}

/** `POST portals/<orgId>/createRole` (name ≤128, description ≤250) → {success, id}. The role starts with no privileges. */
export function createRole(orgId: string, params: { name: string; description?: string }): Promise<{ success: boolean; id: string }> {
  return request<{ success: boolean; id: string }>(`portals/${seg(orgId)}/createRole`, params, { method: 'POST' });
}

/** `POST …/roles/<id>/update` (name, description; only those sent change) → {success}. */
export function updateRole(orgId: string, roleId: string, params: { name?: string; description?: string }): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`${rolePath(orgId, roleId)}/update`, params, { method: 'POST' });
}

/**
 * `POST …/roles/<id>/setPrivileges`: replaces the role's privileges. The wire wants JSON text of a
 * wrapped object `{"privileges":[…]}`; the portal adds what they imply and names unknown ids.
 */
export function setRolePrivileges(orgId: string, roleId: string, privileges: readonly string[]): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`${rolePath(orgId, roleId)}/setPrivileges`, { privileges: JSON.stringify({ privileges }) }, { method: 'POST' });
}

/** `POST …/roles/<id>/delete` → {success, roleId}. Refused while members hold the role. */
export function deleteRole(orgId: string, roleId: string): Promise<{ success: boolean; roleId: string }> {
  return request<{ success: boolean; roleId: string }>(`${rolePath(orgId, roleId)}/delete`, {}, { method: 'POST' });
}
