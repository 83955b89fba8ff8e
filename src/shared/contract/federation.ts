/**
 * Federated servers (portals/<orgId>/servers, …/servers/register) and their administration
 * (/server/<serverId>/admin/services/…, shaped like ArcGIS Server's admin API). Parameters are in
 * webhooks.ts beside the service webhooks they carry.
 */
import { ownerOr, privileges, type Authority } from '../authority.ts';

/**
 * Who may call each federation operation: servers are listed, registered and administered by the
 * organization's members holding portal:admin:manageServers; a service webhook by its owner or a
 * member holding portal:admin:manageWebhooks.
 */
export const FEDERATION_OPERATIONS = {
  listServers: privileges('portal:admin:manageServers'),
  registerServer: privileges('portal:admin:manageServers'),
  listServices: privileges('portal:admin:manageServers'),
  createService: privileges('portal:admin:manageServers'),
  serviceWebhooks: ownerOr('portal:admin:manageWebhooks'),
  createServiceWebhook: ownerOr('portal:admin:manageWebhooks'),
  serviceWebhook: ownerOr('portal:admin:manageWebhooks'),
  editServiceWebhook: ownerOr('portal:admin:manageWebhooks'),
  deleteServiceWebhook: ownerOr('portal:admin:manageWebhooks'),
} as const satisfies Record<string, Authority>;
