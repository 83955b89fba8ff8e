import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { setUserDefaultSettingsParams, USER_DEFAULTS_OPERATIONS } from '../../../shared/contract/userDefaultSettings.ts';
import { operation, REST } from '../../http/operation.ts';
import { DEFAULTS_ORG, deleteDefaults, readDefaults, setDefaults } from './service.ts';

export function userDefaultSettingsRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/userDefaultSettings`,
    authority: USER_DEFAULTS_OPERATIONS.userDefaultSettings,
    target: DEFAULTS_ORG,
    params: z.object({}),
    // Read by those who manage them (the New Member Defaults tab is an administrator's setting).
    handler: ({ portal, target }) => readDefaults(portal.db, target.orgId),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/setUserDefaultSettings`,
    authority: USER_DEFAULTS_OPERATIONS.setUserDefaultSettings,
    target: DEFAULTS_ORG,
    params: setUserDefaultSettingsParams,
    handler: ({ caller, params, portal, target }) => setDefaults(portal, caller, target.orgId, params),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/userDefaultSettings/delete`,
    authority: USER_DEFAULTS_OPERATIONS.deleteUserDefaultSettings,
    target: DEFAULTS_ORG,
    params: z.object({}),
    handler: ({ caller, portal, target }) => deleteDefaults(portal, caller, target.orgId),
  });
}
