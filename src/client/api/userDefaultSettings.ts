/** New-member defaults: what a new account gets when its creation does not say otherwise. */
import { request, type RequestOptions } from './request.ts';
import type { UserDefaultSettings } from './types.ts';

const seg = encodeURIComponent;

/** A field left out is kept; an empty string clears that default alone. */
export interface SetUserDefaultSettingsInput {
  /** org_publisher, org_user or a custom role id — never an administrator role. */
  role?: string;
  userLicenseType?: string;
  /** Group ids of the organization. */
  groups?: readonly string[];
  userType?: 'arcgisonly' | 'both' | '';
}

/** `GET portals/<orgId>/userDefaultSettings` (nulls and empty lists when unset). */
export function getUserDefaultSettings(orgId: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<UserDefaultSettings> {
  return request<UserDefaultSettings>(`portals/${seg(orgId)}/userDefaultSettings`, {}, { ...options, method: 'GET' });
}

/** `POST portals/<orgId>/setUserDefaultSettings`: only the fields sent change (empty clears one); `groups` goes as JSON array text. */
export function setUserDefaultSettings(orgId: string, input: SetUserDefaultSettingsInput): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(
    `portals/${seg(orgId)}/setUserDefaultSettings`,
    { role: input.role, userLicenseType: input.userLicenseType, userType: input.userType, groups: input.groups ? JSON.stringify(input.groups) : undefined },
    { method: 'POST' },
  );
}

/** `POST portals/<orgId>/userDefaultSettings/delete`: clears every default at once. */
export function deleteUserDefaultSettings(orgId: string): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`portals/${seg(orgId)}/userDefaultSettings/delete`, {}, { method: 'POST' });
}
