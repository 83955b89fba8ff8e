/** Who may do what on the Settings page (the service enforces the same rules). */
import type { PortalUser } from '../../api/index.ts';
import { ALLOWED, requireDefaultAdminOr, type Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

export const MANAGE_SECURITY = 'portal:admin:manageSecurity';
export const MANAGE_WEBSITE = 'portal:admin:manageWebsite';

/** New-member defaults: default administrators, or holders of portal:admin:manageSecurity. */
export function manageDefaultsPermission(user: Member): Permission {
  return requireDefaultAdminOr(user, MANAGE_SECURITY, 'change the new-member defaults');
}

/** Organization settings: default administrators, or holders of portal:admin:manageWebsite. */
export function orgSettingsPermission(user: Member): Permission {
  return requireDefaultAdminOr(user, MANAGE_WEBSITE, 'change organization settings');
}

/** The Settings area is for administrators: those who may change any of its settings. */
export function settingsAccess(user: Member): Permission {
  const defaults = manageDefaultsPermission(user);
  if (defaults.allowed || orgSettingsPermission(user).allowed) return ALLOWED;
  return defaults;
}
