import type { FastifyInstance } from 'fastify';
import { generateTokenParams, revokeTokenParams } from '../../../shared/contract/users.ts';
import { operation, REST } from '../../http/operation.ts';
import { generateToken, revokeToken } from './service.ts';

export function authRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/generateToken`,
    params: generateTokenParams,
    access: 'public',
    handler: ({ params, portal }) => generateToken(portal, params),
  });

  // rest-js's ArcGISIdentityManager.signOut/destroy posts here; the console calls it on sign-out.
  operation(app, {
    method: 'write',
    path: `${REST}/oauth2/revokeToken`,
    params: revokeTokenParams,
    access: 'public',
    handler: ({ params, portal }) => revokeToken(portal, params.auth_token),
  });
}
