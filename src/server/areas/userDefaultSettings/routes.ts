import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { setUserDefaultSettingsParams } from '../../../shared/contract/userDefaultSettings.ts';
import type { Caller } from '../../http/auth.ts';
import { operation, REST } from '../../http/operation.ts';
import { privileges } from '../../http/authority.ts';
import { assertDefaultsAdmin, deleteDefaults, readDefaults, setDefaults } from './service.ts';

const org = (caller: Caller, orgId: string) => (orgId === 'self' ? caller.orgId : orgId);

export function userDefaultSettingsRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/userDefaultSettings`,
    authority: privileges('portal:admin:manageSecurity'),
    params: z.object({}),
    handler: async ({ caller, path, portal }) => {
      // Read by those who manage them (the New Member Defaults tab is an administrator's setting):
      // the defaults name groups and apps members need not know about.
      const orgId = org(caller, path.orgId);
      assertDefaultsAdmin(caller, orgId);
      return readDefaults(portal.db, orgId);
    },
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/setUserDefaultSettings`,
    authority: privileges('portal:admin:manageSecurity'),
    params: setUserDefaultSettingsParams,
    handler: ({ caller, path, params, portal }) => setDefaults(portal, caller, org(caller, path.orgId), params),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/userDefaultSettings/delete`,
    authority: privileges('portal:admin:manageSecurity'),
    params: z.object({}),
    handler: ({ caller, path, portal }) => deleteDefaults(portal, caller, org(caller, path.orgId)),
  });
}
