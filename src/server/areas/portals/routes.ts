import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { portalRegionsParams, updatePortalParams } from '../../../shared/contract/portals.ts';
import { operation, REST } from '../../http/operation.ts';
import { member, own } from '../../http/authority.ts';
import { LANGUAGES, regionsIn } from './regions.ts';
import { getPortal, getPortalSettings, SETTINGS_ORG, updatePortal, WEBSITE_MANAGERS } from './service.ts';

export function portalRoutes(app: FastifyInstance): void {
  // Static paths: Fastify's router prefers them to `portals/:orgId`, so "regions" and "languages"
  // are never read as organization ids. Fixed tables, no organization's data: anyone may read them.
  operation(app, {
    method: 'read',
    path: `${REST}/portals/regions`,
    authority: own(),
    params: portalRegionsParams,
    access: 'public',
    handler: async ({ params }) => regionsIn(params.culture),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/languages`,
    authority: own(),
    params: z.object({}),
    access: 'public',
    handler: async () => LANGUAGES,
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/settings`,
    authority: member(),
    params: z.object({}),
    access: 'public',
    handler: ({ caller, path, portal }) => getPortalSettings(portal, caller, path.orgId),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId`,
    authority: member(),
    extras: ['memberCount', 'maxExternalMembersPerGroup', 'localExtras'],
    params: z.object({}),
    access: 'public',
    handler: ({ caller, path, portal }) => getPortal(portal, caller, path.orgId),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/update`,
    authority: WEBSITE_MANAGERS,
    target: SETTINGS_ORG,
    localParams: ['isVerified', 'maxExternalMembersPerGroup'],
    params: updatePortalParams,
    handler: ({ caller, params, portal, target }) => updatePortal(portal, caller, target.orgId, params),
  });
}
