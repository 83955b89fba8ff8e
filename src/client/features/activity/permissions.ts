/** The organization's history is read by whom the service's declaration admits (HISTORY_READ_OPERATIONS.history); it answers 403 to anyone else. */
import type { PortalUser } from '../../api/index.ts';
import { can } from '../../lib/can.ts';
import type { Permission } from '../../lib/privileges.ts';

export const activityAccess = (user: PortalUser): Permission => can(user, 'history', undefined, "read the organization's activity");
