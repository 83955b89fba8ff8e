/** The organization's history is read by administrators (the portal answers 403 to anyone else). */
import type { PortalUser } from '../../api/index.ts';
import { requirePrivilege, type Permission } from '../../lib/privileges.ts';

export const activityAccess = (user: PortalUser): Permission => requirePrivilege(user, 'portal:admin:viewItems', "read the organization's activity");
