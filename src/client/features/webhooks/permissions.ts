/** Who may do what with webhooks: the service's own table (WEBHOOK_OPERATIONS), asked through can(). */
import type { PortalUser } from '../../api/index.ts';
import type { WEBHOOK_OPERATIONS } from '../../../shared/contract/webhooks.ts';
import { can } from '../../lib/can.ts';
import type { Permission } from '../../lib/privileges.ts';

export const webhooksAccess = (user: PortalUser): Permission => can(user, 'listWebhooks', undefined, 'manage webhooks');

/** A webhook operation on the organization's webhooks; the reason names what it needs for the action at hand. */
export const webhookAction = (user: PortalUser, operation: keyof typeof WEBHOOK_OPERATIONS, action: string): Permission =>
  can(user, operation, undefined, action);
