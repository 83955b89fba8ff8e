import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PORTAL_OPERATIONS, portalRegionsParams, updatePortalParams } from '../../../shared/contract/portals.ts';
import { operation, REST } from '../../http/operation.ts';
import { LANGUAGES, regionsIn } from './regions.ts';
import { getPortal, getPortalSettings, getSubscriptionInfo, SETTINGS_ORG, updatePortal } from './service.ts';
import { geometryHelperRoutes } from './helperServices.ts';
import { portalUrlOf } from '../root/service.ts';

export function portalRoutes(app: FastifyInstance): void {
  // Static paths: Fastify's router prefers them to `portals/:orgId`, so "regions" and "languages"
  // are never read as organization ids. Fixed tables, no organization's data: anyone may read them.
  operation(app, {
    method: 'read',
    path: `${REST}/portals/regions`,
    authority: PORTAL_OPERATIONS.regions,
    params: portalRegionsParams,
    access: 'public',
    handler: async ({ params }) => regionsIn(params.culture),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/languages`,
    authority: PORTAL_OPERATIONS.languages,
    params: z.object({}),
    access: 'public',
    handler: async () => LANGUAGES,
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/settings`,
    authority: PORTAL_OPERATIONS.portalSettings,
    params: z.object({}),
    access: 'public',
    handler: ({ caller, path, portal, req }) => getPortalSettings(portal, caller, path.orgId, portalUrlOf(portal.config, req)),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId`,
    authority: PORTAL_OPERATIONS.portal,
    extras: ['memberCount', 'maxExternalMembersPerGroup', 'localExtras'],
    params: z.object({}),
    access: 'public',
    handler: ({ caller, path, portal, req }) => getPortal(portal, caller, path.orgId, portalUrlOf(portal.config, req)),
  });

  // Subscription Info: rest-js and the documentation spell it subscriptionInfo; other clients send it in lower case.
  for (const name of ['subscriptionInfo', 'subscriptioninfo']) {
    operation(app, {
      method: 'read',
      path: `${REST}/portals/:orgId/${name}`,
      authority: PORTAL_OPERATIONS.subscriptionInfo,
      params: z.object({}),
      handler: ({ caller, path, portal }) => getSubscriptionInfo(portal, caller, path.orgId),
    });
  }

  geometryHelperRoutes(app);

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/update`,
    authority: PORTAL_OPERATIONS.updatePortal,
    target: SETTINGS_ORG,
    localParams: ['isVerified', 'maxExternalMembersPerGroup'],
    params: updatePortalParams,
    handler: ({ caller, params, portal, target }) => updatePortal(portal, caller, target.orgId, params),
  });
}
