/** New-member defaults (spec §4.13; facts §3.11). */
import { z } from 'zod';
import { USER_LICENSE_TYPES } from './users.ts';
import { commaList, jsonObject } from './wire.ts';

const appEntry = z.object({ itemId: z.string().min(1).max(64), entitlements: z.array(z.string().max(128)).max(100).optional() });

export const setUserDefaultSettingsParams = z.object({
  role: z.string().trim().min(1).max(64).optional(),
  userLicenseType: z.enum(USER_LICENSE_TYPES).optional(),
  /** JSON array text of group ids (a comma list is accepted too). */
  groups: commaList.pipe(z.array(z.string().max(64)).max(100, 'may name at most 100 groups')).optional(),
  userType: z.enum(['arcgisonly', 'both']).optional(),
  apps: jsonObject(z.array(appEntry).max(100)).optional(),
  appBundles: jsonObject(z.array(z.object({ itemId: z.string().min(1).max(64) })).max(100)).optional(),
});

export interface UserDefaultSettings {
  role: string | null;
  userLicenseType: string | null;
  groups: string[];
  userType: 'arcgisonly' | 'both' | null;
  apps: { itemId: string; entitlements?: string[] }[];
  appBundles: { itemId: string }[];
}
