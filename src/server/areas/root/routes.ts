import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SESSION_OPERATIONS } from '../../../shared/contract/session.ts';
import { operation, REST } from '../../http/operation.ts';
import { infoAnswer, rootAnswer } from './service.ts';

export function rootRoutes(app: FastifyInstance): void {
  // Public, yet a token sent along is checked like anywhere else: an invalid or expired one answers
  // 498, which is how checkSignInStatus learns a stored credential is no longer good.
  operation(app, {
    method: 'read',
    path: REST,
    authority: SESSION_OPERATIONS.restRoot,
    params: z.object({}),
    access: 'public',
    handler: async () => rootAnswer(),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/info`,
    authority: SESSION_OPERATIONS.restInfo,
    params: z.object({}),
    access: 'public',
    handler: async ({ portal, req }) => infoAnswer(portal.config, req),
  });
}
