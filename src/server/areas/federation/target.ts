/**
 * A federated server's service, as the target of the operations on its webhooks (http/target.ts),
 * decided with FEDERATION_OPERATIONS: an administrator of the server's organization holding
 * portal:admin:manageWebhooks on any service, and the service's owner on theirs while holding the
 * webhook privilege of its type (policies.ts). Loading answers as the area always has, in its order:
 * a malformed service name (400), an unknown server (404), another organization's server (403,
 * before the service is looked up, so an outsider learns nothing of it), an unknown service (404).
 */
import { mayManageServiceWebhooks, serviceWebhookPrivilege } from '../../http/policies.ts';
import type { Refusals, Target } from '../../http/target.ts';
import * as repo from './repo.ts';
import { parseServiceRef, serverNotFound, serviceNotFound, type ServiceToManage } from './service.ts';

const OTHER_ORG = 'The server is federated with another organization.';
const NOT_THE_OWNER = "Only the service's owner or an administrator with portal:admin:manageWebhooks manages its webhooks.";

/** The service the path names (`:serverId`, `:folder` if any, `:service` as name.Type). */
export const SERVICE_WEBHOOKS: Target<ServiceToManage> = {
  refusals: { otherOrg: OTHER_ORG },
  async load({ caller, path, portal }) {
    const key = parseServiceRef(path.serverId, path.folder, path.service);
    const server = await repo.findServer(portal.db, key.serverId);
    if (!server) throw serverNotFound(key.serverId);
    // Another organization's server: decide() refuses it; its services are not looked up.
    if (server.org_id !== caller.orgId) return { value: undefined as never, orgId: server.org_id };
    const service = await repo.findService(portal.db, key);
    if (!service) throw serviceNotFound(key);
    // Without the type's privilege the owner is asked what anyone else is, and told what they lack.
    const ownerMay = mayManageServiceWebhooks(caller, key.serviceType);
    const refusals: Refusals = {
      otherOrg: OTHER_ORG,
      missing: () => (ownerMay ? NOT_THE_OWNER : `Requires the privilege ${serviceWebhookPrivilege(key.serviceType)}.`),
    };
    return { value: { key, service }, orgId: server.org_id, ownerId: ownerMay ? service.owner_id : null, refusals };
  },
};
