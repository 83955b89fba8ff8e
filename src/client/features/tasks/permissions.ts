import type { PortalUser } from '../../api/index.ts';
import { requirePrivilege, type Permission } from '../../lib/privileges.ts';

/** Scheduling runs work on the member's content: members who cannot create content have no tasks. */
export const tasksAccess = (user: PortalUser): Permission => requirePrivilege(user, 'portal:user:createItem', 'schedule tasks');
