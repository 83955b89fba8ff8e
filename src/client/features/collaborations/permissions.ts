/** Who may do what with collaborations: the service's own table (COLLABORATION_OPERATIONS), asked through can(). */
import type { PortalUser } from '../../api/index.ts';
import type { COLLABORATION_OPERATIONS } from '../../../shared/contract/collaborations.ts';
import { can } from '../../lib/can.ts';
import type { Permission } from '../../lib/privileges.ts';

/** A collaboration operation; the reason names what it needs for the action at hand. */
export const collaborationAction = (user: PortalUser, operation: keyof typeof COLLABORATION_OPERATIONS, action: string): Permission =>
  can(user, operation, undefined, action);
