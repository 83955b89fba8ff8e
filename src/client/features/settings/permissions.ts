/** Who may do what on the Settings page: the service's own tables, asked through can(). */
import type { PortalUser } from '../../api/index.ts';
import { can } from '../../lib/can.ts';
import { ALLOWED, type Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

/** New-member defaults (USER_DEFAULTS_OPERATIONS.setUserDefaultSettings). */
export function manageDefaultsPermission(user: Member): Permission {
  return can(user, 'setUserDefaultSettings', undefined, 'change the new-member defaults');
}

/** Organization settings (PORTAL_OPERATIONS.updatePortal). */
export function orgSettingsPermission(user: Member): Permission {
  return can(user, 'updatePortal', undefined, 'change organization settings');
}

/** The Settings area is for administrators: those who may change any of its settings. */
export function settingsAccess(user: Member): Permission {
  const defaults = manageDefaultsPermission(user);
  if (defaults.allowed || orgSettingsPermission(user).allowed) return ALLOWED;
  return defaults;
}
