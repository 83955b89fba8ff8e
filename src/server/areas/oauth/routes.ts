/**
 * OAuth 2.0 under /sharing/rest/oauth2 (paths as the ArcGIS REST documentation has them; the
 * sign-in endpoints, authorize and token, under /sharing/oauth2 as well: paths.ts), the item's
 * registeredAppInfo, and the console's /console-config.json at the root.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { OAUTH_OPERATIONS, registerAppParams, tokenParams, updateAppParams } from '../../../shared/contract/oauth.ts';
import { operation, REST } from '../../http/operation.ts';
import { showSignIn, submitSignIn } from './authorize.ts';
import { consoleConfig } from './consoleApp.ts';
import { oauth2Paths } from './paths.ts';
import { getApp, registerApp, token, unregisterApp, updateApp } from './service.ts';
import { APP, APP_OF_ITEM } from './target.ts';

const none = z.object({});

export function oauthRoutes(app: FastifyInstance): void {
  const portal = app.portal;

  operation(app, {
    method: 'write',
    path: `${REST}/oauth2/registerApp`,
    authority: OAUTH_OPERATIONS.registerApp,
    params: registerAppParams,
    handler: ({ params, caller, portal }) => registerApp(portal, caller, params),
  });
  // The docs list POST; GET is answered too, as for every read.
  operation(app, {
    method: 'read',
    path: `${REST}/oauth2/apps/:clientId`,
    authority: OAUTH_OPERATIONS.app,
    target: APP,
    params: none,
    handler: async ({ target }) => getApp(target),
  });
  operation(app, {
    method: 'write',
    path: `${REST}/oauth2/apps/:clientId/update`,
    authority: OAUTH_OPERATIONS.updateApp,
    target: APP,
    params: updateAppParams,
    handler: ({ params, portal, target }) => updateApp(portal, target, params),
  });
  operation(app, {
    method: 'write',
    path: `${REST}/oauth2/apps/:clientId/unregister`,
    authority: OAUTH_OPERATIONS.unregisterApp,
    target: APP,
    params: none,
    handler: ({ caller, portal, target }) => unregisterApp(portal, caller, target),
  });
  operation(app, {
    method: 'read',
    path: `${REST}/content/users/:username/items/:itemId/registeredAppInfo`,
    authority: OAUTH_OPERATIONS.registeredAppInfo,
    target: APP_OF_ITEM,
    params: none,
    handler: async ({ target }) => getApp(target),
  });

  // rest-js and the Maps SDK post to `…/sharing/rest/oauth2/token` (never with a trailing slash;
  // accepted anyway); the /sharing/oauth2 twin is the authorize page's neighbour on ArcGIS.
  for (const path of oauth2Paths('token', { trailingSlash: true })) {
    operation(app, {
      method: 'write',
      path,
      authority: OAUTH_OPERATIONS.token,
      params: tokenParams,
      access: 'public',
      handler: ({ params, portal, reply }) => {
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        return token(portal, params);
      },
    });
  }

  // The sign-in page. Its headers are set again in a route onSend hook, after the app-wide ones.
  const final = async (_req: unknown, reply: FastifyReply, payload: unknown) => {
    reply.header('Referrer-Policy', 'no-referrer').header('X-Frame-Options', 'DENY').header('Cache-Control', 'no-store');
    return payload;
  };
  // The Maps SDK opens /sharing/oauth2/authorize, rest-js /sharing/rest/oauth2/authorize; the page's
  // form posts back to the path it was shown on (a relative action).
  for (const url of oauth2Paths('authorize')) {
    // No automatic HEAD route: each GET stores a sign-in form, and a HEAD has no use for one.
    app.route({ method: 'GET', url, exposeHeadRoute: false, onSend: final, handler: (req, reply) => showSignIn(portal, req, reply) });
    app.route({ method: 'POST', url, onSend: final, handler: (req, reply) => submitSignIn(portal, req, reply) });
  }

  app.get('/console-config.json', async (req, reply) => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : portal.config.port;
    const body = await consoleConfig(portal, port, req.headers.host);
    return reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));
  });
}
