/** Webhooks are managed by administrators holding the organization-webhooks privilege. */
import type { PortalUser } from '../../api/index.ts';
import { requirePrivilege, type Permission } from '../../lib/privileges.ts';

export const MANAGE_WEBHOOKS = 'portal:admin:manageWebhooks';

export const webhooksAccess = (user: PortalUser): Permission => requirePrivilege(user, MANAGE_WEBHOOKS, 'manage webhooks');

/** Every webhook action needs the same privilege; the reason names it for the action at hand. */
export const webhookAction = (user: PortalUser, action: string): Permission => requirePrivilege(user, MANAGE_WEBHOOKS, action);
