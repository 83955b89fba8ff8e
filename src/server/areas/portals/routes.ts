import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { operation, REST } from '../../http/operation.ts';
import { getPortal } from './service.ts';

export function portalRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId`,
    params: z.object({}),
    access: 'public',
    handler: ({ caller, path, portal }) => getPortal(portal, caller, path.orgId),
  });
}
