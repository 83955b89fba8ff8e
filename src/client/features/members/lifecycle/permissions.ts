/** Who may use the lifecycle's operations: the service's table (MEMBER_LIFECYCLE_OPERATIONS), asked through can(). */
import type { PortalUser } from '../../../api/index.ts';
import { can } from '../../../lib/can.ts';
import type { Permission } from '../../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

export const expiryPermission = (user: Member): Permission => can(user, 'setExpiration', undefined, "set members' expiration dates");
export const viewLifecyclePermission = (user: Member): Permission => can(user, 'inactivityPolicies', undefined, 'see inactivity policies');
export const managePoliciesPermission = (user: Member): Permission => can(user, 'createInactivityPolicy', undefined, 'manage inactivity policies');
