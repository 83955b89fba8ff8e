/**
 * Federated servers and their service webhooks.
 *
 * Portal side (under /sharing/rest): `portals/<orgId>/servers`, `portals/<orgId>/servers/register`,
 * `portals/<orgId>/webhooks/listServiceWebhooks` (spec §4.4).
 *
 * Server administration, shaped like ArcGIS Server's admin API
 * (`<server>/admin/services/[<folder>/]<service>.<type>/webhooks/…`), at
 * `/server/<serverId>/admin/services/…`: the services list, `createService`, and per service
 * `webhooks` (list), `webhooks/create`, `webhooks/<id>`, `webhooks/<id>/edit`, `webhooks/<id>/delete`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createServiceParams,
  createServiceWebhookParams,
  editServiceWebhookParams,
  listServiceWebhooksParams,
  registerServerParams,
  WEBHOOK_OPERATIONS,
} from '../../../shared/contract/webhooks.ts';
import { operation, REST } from '../../http/operation.ts';
import {
  createService,
  createServiceWebhook,
  deleteServiceWebhook,
  editServiceWebhook,
  listServers,
  listServices,
  listServiceWebhooks,
  registerServer,
  SERVERS_TO_LIST,
  SERVERS_TO_REGISTER,
  serviceWebhook,
  serviceWebhooks,
  SERVER_TO_ADMINISTER,
} from './service.ts';
import { SERVICE_WEBHOOKS } from './target.ts';
import { WEBHOOK_ORG } from '../webhooks/service.ts';
import { FEDERATION_OPERATIONS } from '../../../shared/contract/federation.ts';

export const SERVER_ADMIN = '/server/:serverId/admin/services';
const none = z.object({});

export function federationRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/webhooks/listServiceWebhooks`,
    authority: WEBHOOK_OPERATIONS.listServiceWebhooks,
    target: WEBHOOK_ORG,
    extras: ['webhooks.serverId'],
    params: listServiceWebhooksParams,
    handler: ({ params, portal, target }) => listServiceWebhooks(portal, target.orgId, params.username ?? params.userName),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/servers`,
    authority: FEDERATION_OPERATIONS.listServers,
    target: SERVERS_TO_LIST,
    params: none,
    handler: ({ portal, target }) => listServers(portal, target.orgId),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/servers/register`,
    authority: FEDERATION_OPERATIONS.registerServer,
    target: SERVERS_TO_REGISTER,
    params: registerServerParams,
    handler: ({ params, portal, target }) => registerServer(portal, target.orgId, params),
  });

  operation(app, {
    method: 'read',
    path: SERVER_ADMIN,
    authority: FEDERATION_OPERATIONS.listServices,
    target: SERVER_TO_ADMINISTER,
    params: none,
    handler: ({ portal, target }) => listServices(portal, target),
  });

  operation(app, {
    method: 'write',
    path: `${SERVER_ADMIN}/createService`,
    authority: FEDERATION_OPERATIONS.createService,
    target: SERVER_TO_ADMINISTER,
    params: createServiceParams,
    handler: ({ caller, params, portal, target }) => createService(portal, caller, target, params),
  });

  // Every service operation exists with and without a folder in the path.
  for (const prefix of [`${SERVER_ADMIN}/:service`, `${SERVER_ADMIN}/:folder/:service`]) {
    operation(app, {
      method: 'read',
      path: `${prefix}/webhooks`,
      authority: FEDERATION_OPERATIONS.serviceWebhooks,
      target: SERVICE_WEBHOOKS,
      params: none,
      handler: ({ portal, target }) => serviceWebhooks(portal, target),
    });

    operation(app, {
      method: 'write',
      path: `${prefix}/webhooks/create`,
      authority: FEDERATION_OPERATIONS.createServiceWebhook,
      target: SERVICE_WEBHOOKS,
      params: createServiceWebhookParams,
      handler: ({ caller, params, portal, target }) => createServiceWebhook(portal, caller, target, params),
    });

    operation(app, {
      method: 'read',
      path: `${prefix}/webhooks/:webhookId`,
      authority: FEDERATION_OPERATIONS.serviceWebhook,
      target: SERVICE_WEBHOOKS,
      params: none,
      handler: ({ path, portal, target }) => serviceWebhook(portal, target, path.webhookId),
    });

    operation(app, {
      method: 'write',
      path: `${prefix}/webhooks/:webhookId/edit`,
      authority: FEDERATION_OPERATIONS.editServiceWebhook,
      target: SERVICE_WEBHOOKS,
      params: editServiceWebhookParams,
      handler: ({ caller, path, params, portal, target }) => editServiceWebhook(portal, caller, target, path.webhookId, params),
    });

    operation(app, {
      method: 'write',
      path: `${prefix}/webhooks/:webhookId/delete`,
      authority: FEDERATION_OPERATIONS.deleteServiceWebhook,
      target: SERVICE_WEBHOOKS,
      params: none,
      handler: ({ caller, path, portal, target }) => deleteServiceWebhook(portal, caller, target, path.webhookId),
    });
  }
}
