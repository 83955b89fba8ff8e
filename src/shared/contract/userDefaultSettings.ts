/** New-member defaults (spec §4.13; facts §3.11). */
import { z } from 'zod';
import { privileges, type Authority } from '../authority.ts';
import { USER_LICENSE_TYPES } from './users.ts';
import { commaList, jsonObject } from './wire.ts';

const appEntry = z.object({ itemId: z.string().min(1).max(64), entitlements: z.array(z.string().max(128)).max(100).optional() });

/**
 * An empty value clears that one default (null); an absent one keeps it. The documented way to
 * clear is only "delete" (all at once), and a portal's own settings page sends every field, so
 * a console that sends the whole set with cleared fields empty means the same to both.
 */
const clearable = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? null : v), schema.nullable()).optional();

/** One default's value when it is set (forms check these before sending). */
export const defaultValueSchemas = {
  role: z.string().trim().min(1).max(64),
  userLicenseType: z.enum(USER_LICENSE_TYPES),
  userType: z.enum(['arcgisonly', 'both']),
};

export const setUserDefaultSettingsParams = z.object({
  role: clearable(defaultValueSchemas.role),
  userLicenseType: clearable(defaultValueSchemas.userLicenseType),
  /** JSON array text of group ids (a comma list is accepted too). */
  groups: commaList.pipe(z.array(z.string().max(64)).max(100, 'may name at most 100 groups')).optional(),
  userType: clearable(defaultValueSchemas.userType),
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

/**
 * Who may call each new-member-defaults operation (`portals/<orgId>/userDefaultSettings`…): the
 * organization's members holding manageSecurity. The service declares its routes with these
 * entries; the console asks the same ones (lib/can.ts).
 */
export const USER_DEFAULTS_OPERATIONS = {
  userDefaultSettings: privileges('portal:admin:manageSecurity'),
  setUserDefaultSettings: privileges('portal:admin:manageSecurity'),
  deleteUserDefaultSettings: privileges('portal:admin:manageSecurity'),
} as const satisfies Record<string, Authority>;
