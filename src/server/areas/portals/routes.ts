import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { updatePortalParams } from '../../../shared/contract/portals.ts';
import { operation, REST } from '../../http/operation.ts';
import { member, privileges } from '../../http/authority.ts';
import { getPortal, updatePortal } from './service.ts';

export function portalRoutes(app: FastifyInstance): void {
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
    authority: privileges('portal:admin:manageWebsite'),
    localParams: ['isVerified', 'maxExternalMembersPerGroup'],
    params: updatePortalParams,
    handler: ({ caller, path, params, portal }) => updatePortal(portal, caller, path.orgId === 'self' ? caller.orgId : path.orgId, params),
  });
}
