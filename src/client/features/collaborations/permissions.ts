/** Collaborations are managed by administrators holding the collaborations privilege. */
import type { PortalUser } from '../../api/index.ts';
import { requirePrivilege, type Permission } from '../../lib/privileges.ts';

export const MANAGE_COLLABORATIONS = 'portal:admin:manageCollaborations';

/** Every collaboration action needs the same privilege; the reason names it for the action at hand. */
export const collaborationAction = (user: PortalUser, action: string): Permission => requirePrivilege(user, MANAGE_COLLABORATIONS, action);
