/**
 * Builds the local portal: the REST interface under /sharing/rest, portal administration under
 * /portaladmin, and the built console at / (client routes fall back to index.html).
 * main.ts is the only file that listens.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { LIMITS } from '../shared/limits.ts';
import { authRoutes } from './areas/auth/routes.ts';
import { oauthRoutes } from './areas/oauth/routes.ts';
import { collaborationRoutes } from './areas/collaborations/routes.ts';
import { dependencyRoutes } from './areas/dependencies/routes.ts';
import { installStartupIndexing } from './areas/dependencies/startup.ts';
import { folderRoutes } from './areas/folders/routes.ts';
import { groupRoutes } from './areas/groups/routes.ts';
import { itemManageRoutes } from './areas/items/manage.ts';
import { updateThumbnailRoutes } from './areas/items/updateThumbnail.ts';
import { itemReadRoutes } from './areas/items/read.ts';
import { itemGroupsRoutes } from './areas/items/itemGroups.ts';
import { itemSearchRoutes } from './areas/items/search.ts';
import { itemSharingRoutes } from './areas/items/sharing.ts';
import { itemStatusRoutes } from './areas/items/status.ts';
import { addItemRoutes } from './areas/items/addRoutes.ts';
import { allowedOriginsOf } from './areas/portals/allowedOrigins.ts';
import { portalRoutes } from './areas/portals/routes.ts';
import { healthRoutes } from './areas/health/routes.ts';
import { historyRoutes } from './areas/history/routes.ts';
import { proxyRoutes } from './areas/proxy/routes.ts';
import { reassignRoutes } from './areas/reassign/routes.ts';
import { relationshipRoutes } from './areas/relationships/routes.ts';
import { recycleBinRoutes } from './areas/recycleBin/routes.ts';
import { resourceRoutes } from './areas/resources/routes.ts';
import { roleRoutes } from './areas/roles/routes.ts';
import { userDefaultSettingsRoutes } from './areas/userDefaultSettings/routes.ts';
import { taskRoutes } from './areas/tasks/routes.ts';
import { userRoutes } from './areas/users/routes.ts';
import { callerLookups } from './areas/users/service.ts';
import { memberLifecycleRoutes } from './areas/memberLifecycle/routes.ts';
import { memberJobRoutes } from './areas/memberJobs/routes.ts';
import { webhookRoutes } from './areas/webhooks/routes.ts';
import { federationRoutes } from './areas/federation/routes.ts';
import { rootRoutes } from './areas/root/routes.ts';
import type { Config } from './config.ts';
import { systemClock, type Clock, type PortalContext } from './context.ts';
import { provideCallerLookups } from './http/auth.ts';
import { installCors } from './http/cors.ts';
import { ApiError, databaseUnavailable } from './http/errors.ts';
import { ERROR_EXTRAS, unknownOperation, withoutExtras } from './http/localExtras.ts';
import { installMultipartBodies, registerMultipartParser } from './http/multipart.ts';
import { lazySchemaCompilers } from './http/schemaCompilers.ts';
import { installStrictTransportSecurity } from './http/tls.ts';
import { openBlobStore } from './store/openBlobs.ts';
import { BlobStoreUnavailableError } from './store/blobs.ts';
import { DatabaseUnavailableError, type Db } from './store/db.ts';
import { projectPath } from './projectPaths.ts';

export interface AppOptions {
  db: Db;
  config: Config;
  clock?: Clock;
  logger?: boolean;
  /** Folder of the built console; defaults to dist/client. */
  clientDir?: string;
  /** Listen with HTTPS (PEM text: http/tls.ts loads it); plain HTTP when absent. */
  https?: { key: string; cert: string };
}

const DEFAULT_CLIENT_DIR = projectPath('dist', 'client');
// Paths of the REST interface, portal administration and the federated servers' admin API: never the console.
const API_PREFIXES = ['/sharing', '/portaladmin', '/server'];

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as the HTTP server either way: handlers see the same request and reply objects over TLS.
    ...(opts.https ? { https: opts.https } : {}),
    logger: opts.logger ? { level: 'info' } : false,
    bodyLimit: LIMITS.formBodyBytes,
    // req.ip is the client's address behind the proxies named by TRUST_PROXY (sign-in throttling counts by it).
    trustProxy: opts.config.trustProxy?.length ? opts.config.trustProxy : false,
    // Parameter names like __proto__ must never reach an object's prototype (ASVS 15.3.6).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // A URL the router cannot decode gets the error envelope like any other bad request.
    frameworkErrors: (err, _req, reply) => sendError(reply, new ApiError(400, 'Invalid URL', [err.message], 'GWM_0002')),
    // ajv and fast-json-stringify only if a route declares a Fastify schema (http/schemaCompilers.ts).
    schemaController: { compilersFactory: lazySchemaCompilers },
    // HEAD only where a route asks for it (operation's `head`, the proxy, the console's files): a HEAD
    // route for each of ~220 GET routes cost ~140 ms of a start. Elsewhere HEAD answers as PUT does.
    exposeHeadRoutes: false,
  });
  // An in-memory database (tests) keeps its files in a fresh temporary folder.
  const filesDir = opts.config.dataDir === ':memory:' ? await mkdtemp(path.join(tmpdir(), 'portal-files-')) : path.resolve(opts.config.dataDir);
  const tmpDir = path.join(filesDir, 'tmp');
  const portal: PortalContext = {
    db: opts.db,
    blobs: await openBlobStore(opts.config, filesDir, tmpDir),
    tmpDir,
    config: opts.config,
    clock: opts.clock ?? systemClock,
    log: app.log,
  };
  app.decorate('portal', portal);
  // Request handling imports no area: it resolves callers and path users with the users area's lookups.
  provideCallerLookups(app, callerLookups);
  app.addHook('onClose', async () => portal.blobs.close?.());
  if (opts.config.dataDir === ':memory:') app.addHook('onClose', () => rm(filesDir, { recursive: true, force: true }));

  await app.register(formbody, { bodyLimit: LIMITS.formBodyBytes });
  await registerMultipartParser(app);
  installMultipartBodies(app, portal);

  installNosniff(app);
  installStrictTransportSecurity(app, opts.config, opts.https !== undefined);
  installCors(app, allowedOriginsOf(app.portal));
  installErrorEnvelope(app);

  authRoutes(app);
  oauthRoutes(app);
  portalRoutes(app);
  historyRoutes(app);
  userRoutes(app);
  memberLifecycleRoutes(app);
  memberJobRoutes(app);
  roleRoutes(app);
  groupRoutes(app);
  userDefaultSettingsRoutes(app);
  itemReadRoutes(app);
  itemGroupsRoutes(app);
  itemManageRoutes(app);
  updateThumbnailRoutes(app);
  folderRoutes(app);
  itemSearchRoutes(app);
  itemSharingRoutes(app);
  itemStatusRoutes(app);
  addItemRoutes(app);
  relationshipRoutes(app);
  recycleBinRoutes(app);
  resourceRoutes(app);
  dependencyRoutes(app);
  installStartupIndexing(app);
  taskRoutes(app);
  reassignRoutes(app);
  collaborationRoutes(app);
  proxyRoutes(app);
  webhookRoutes(app);
  federationRoutes(app);
  rootRoutes(app);
  healthRoutes(app);

  await serveConsole(app, opts.clientDir ?? DEFAULT_CLIENT_DIR);
  return app;
}

/** Every answer is what its Content-Type says: a browser never sniffs JSON or a file as HTML or script. */
function installNosniff(app: FastifyInstance): void {
  // The callback form, as every per-request hook (http/cors.ts says why).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });
}

function sendError(reply: import('fastify').FastifyReply, err: ApiError) {
  // With LOCAL_EXTRAS=off the envelope carries only the public fields (docs/local-extras.md).
  const body = reply.server.portal?.config.localExtras === false ? withoutExtras(err.toBody(), ERROR_EXTRAS) : err.toBody();
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: body }));
}

function installErrorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (err instanceof BlobStoreUnavailableError) {
      // The store is down or slow: the caller may try again (every write keeps its row and its file consistent).
      req.log.warn({ err }, 'the blob store failed');
      return sendError(
        reply,
        new ApiError(503, 'The file store is unavailable. Try again shortly.', ['The object store did not answer or refused the request.']),
      );
    }
    if (err instanceof DatabaseUnavailableError) {
      // Down or restarting (a failover): nothing of this request was acknowledged; the pool reconnects by itself.
      req.log.warn({ err }, 'the database is unavailable');
      return sendError(reply, databaseUnavailable());
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return sendError(reply, new ApiError(status, (err as Error).message || 'The request could not be read.', []));
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, new ApiError(500, 'An internal error occurred.', []));
  });
}

/**
 * The console's Content-Security-Policy: scripts only from its own files (the build has no inline
 * script), no plugins, no <base> rewriting, never framed. Styles allow inline because Mantine writes
 * its theme variables and component styles into <style> elements at run time. connect-src and
 * img-src stay open to https: (and loopback http) because the console may be pointed at another
 * portal (ArcGIS Online, an ArcGIS Enterprise) and shows that portal's thumbnails.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http://127.0.0.1:* http://localhost:*",
  "font-src 'self' data:",
  "connect-src 'self' https: http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const isApiPath = (url: string) => {
  const p = url.split('?')[0];
  return API_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
};

async function serveConsole(app: FastifyInstance, clientDir: string): Promise<void> {
  const built = existsSync(path.join(clientDir, 'index.html'));
  if (built) {
    // wildcard: files are looked up per request, so a rebuilt console is served without a restart.
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: true,
      index: ['index.html'],
      // Hashed assets never change; the page itself is revalidated so a new build is picked up.
      setHeaders: (reply, filePath) =>
        reply.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        reply.header('X-Frame-Options', 'DENY').header('Referrer-Policy', 'same-origin');
        // The console's page only (the OAuth sign-in page under /sharing sets its own policy).
        if (!isApiPath(req.url)) reply.header('Content-Security-Policy', CONSOLE_CSP);
      }
      done(null, payload);
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`)) || req.method !== 'GET') {
      return sendError(reply, unknownOperation(url));
    }
    // A missing asset (an old build's chunk) is a 404, not the console page served as script.
    if (url.startsWith('/assets/')) return reply.code(404).type('text/plain').send('Not found');
    if (!built) return reply.code(503).type('text/plain').send('The console has not been built: run `npm run build`, then restart.');
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
