import type { FastifyInstance } from 'fastify';
import { revokeTokenParams } from '../../../shared/contract/oauth.ts';
import { generateTokenParams } from '../../../shared/contract/users.ts';
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

  // rest-js's ArcGISIdentityManager.signOut/destroy posts here (with a trailing slash); the
  // console calls it on sign-out. auth_token: an access token or an OAuth refresh token.
  for (const path of [`${REST}/oauth2/revokeToken`, `${REST}/oauth2/revokeToken/`]) {
    operation(app, {
      method: 'write',
      path,
      params: revokeTokenParams,
      access: 'public',
      handler: ({ params, portal }) => revokeToken(portal, params.auth_token),
    });
  }
}
