import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { revokeTokenParams } from '../../../shared/contract/oauth.ts';
import { generateTokenParams, MEMBER_OPERATIONS } from '../../../shared/contract/users.ts';
import { operation, REST } from '../../http/operation.ts';
import { SESSION_OPERATIONS } from '../../../shared/contract/session.ts';
import { oauth2Paths } from '../oauth/service.ts';
import { generateToken, MEMBER_TO_UNLOCK, revokeToken, unlockSignIn } from './service.ts';
import { sourceOf } from './throttle.ts';

export function authRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/generateToken`,
    authority: SESSION_OPERATIONS.generateToken,
    params: generateTokenParams,
    access: 'public',
    // Failures are throttled per client address (throttle.ts); behind a proxy, TRUST_PROXY makes it the client's.
    handler: ({ params, portal, req }) => generateToken(portal, params, sourceOf(req.ip)),
  });

  // rest-js's ArcGISIdentityManager.signOut/destroy posts here (with a trailing slash); the
  // console calls it on sign-out. auth_token: an access token or an OAuth refresh token. Under
  // /sharing/oauth2 too, like the other sign-in endpoints (oauth/paths.ts).
  for (const path of oauth2Paths('revokeToken', { trailingSlash: true })) {
    operation(app, {
      method: 'write',
      path,
      authority: SESSION_OPERATIONS.revokeToken,
      params: revokeTokenParams,
      access: 'public',
      handler: ({ params, portal }) => revokeToken(portal, params.auth_token),
    });
  }

  // A default administrator lifts the sign-in waits on a member (docs/security.md "Sign-in throttling").
  operation(app, {
    method: 'write',
    path: `${REST}/community/users/:username/unlockSignIn`,
    authority: MEMBER_OPERATIONS.unlockSignIn,
    localOnly: true,
    target: MEMBER_TO_UNLOCK,
    params: z.object({}),
    handler: ({ caller, portal, target }) => unlockSignIn(portal, caller, target),
  });
}
