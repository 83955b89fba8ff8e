/**
 * How every REST operation is declared: its path exactly as the public API has it, whether it
 * reads (GET and POST) or writes (POST only), its parameter schema, and who may call it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PortalContext } from '../context.ts';
import { callerOfRequest, tokenFrom, type Caller } from './auth.ts';
import { checkRequest, type LongParams } from './boundary.ts';
import type { FileParams } from './multipart.ts';
import type { Authority } from './authority.ts';
import { decide, decideOwn, type Target } from './target.ts';
import { reachOf, type Reach } from './reach.ts';
import { ApiError, tokenRequired } from './errors.ts';
import { unknownOperation, withoutExtras } from './localExtras.ts';
import { parseParams, rawParams, type RawParams } from './params.ts';
import { usernameOfPath } from './userPath.ts';

export const REST = '/sharing/rest';
export const PORTAL_ADMIN = '/portaladmin';

interface OperationBase<S extends z.ZodType> {
  /** `read`: GET and POST. `write`: POST only; a GET is refused (no state change on GET). */
  method: 'read' | 'write';
  path: string;
  params: S;
  /** Parameters that may be longer than LIMITS.paramChars, with their own cap (e.g. item `text` data). */
  longParams?: LongParams;
  /**
   * Only this portal has the operation (no public ArcGIS counterpart): with LOCAL_EXTRAS=off it
   * answers as a path with no operation does (docs/local-extras.md).
   */
  localOnly?: boolean;
  /** Answer fields only this portal adds (dotted paths, arrays walked): left out with LOCAL_EXTRAS=off. */
  extras?: readonly string[];
  /** Parameters only this portal reads: ignored with LOCAL_EXTRAS=off, as a real portal ignores unknown ones. */
  localParams?: readonly string[];
  /**
   * Also answers HEAD, as the GET without its body (a `read` operation only): for a file, whose size
   * and ranges a client asks before downloading. Without it a HEAD gets the envelope, as PUT does.
   */
  head?: boolean;
  /** Also answers `f=csv` (the handler writes the file itself). */
  csv?: boolean;
  /** The file parts it reads (multipart.ts): checked, with the caller, before any byte is stored. None: it takes no file. */
  files?: FileParams;
  /**
   * Who may act on what another member owns (http/authority.ts). Required, so no operation is
   * added without saying; the generated privilege matrix checks every declaration.
   */
  authority: Authority;
}

interface PublicOperation<S extends z.ZodType, R> extends OperationBase<S> {
  access: 'public';
  target?: never;
  handler: (ctx: OperationContext<z.output<S>, Caller | null>) => R | Promise<R>;
}

interface SignedInOperation<S extends z.ZodType, R, T> extends OperationBase<S> {
  access?: 'signedIn';
  /**
   * What it acts on (http/target.ts): loaded here, decided with `authority`, handed to the handler
   * as `target` once authorized. Without one the handler decides for itself (areas not yet moved).
   */
  target?: Target<T>;
  handler: (ctx: OperationContext<z.output<S>, Caller> & { target: T }) => R | Promise<R>;
}

/**
 * An answer the handler has already serialised as compact JSON (kept from an earlier request, say):
 * sent as it is, parsed again only for `f=pjson` or when LOCAL_EXTRAS=off strips fields.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** What an operation's route handler gives Fastify: the reply when a handler answered itself, else nothing (already sent). */
type Answered = FastifyReply | undefined;

export interface OperationContext<P, C> {
  params: P;
  caller: C;
  path: Record<string, string>;
  portal: PortalContext;
  req: FastifyRequest;
  reply: FastifyReply;
  /**
   * What the declared `authority` lets the caller reach (reach.ts), for a handler whose service
   * decides on rows it reads itself: services ask it rather than the authority table.
   */
  reach: Reach;
}

/** One request on its way through operation(): what the steps after the caller's resolution share. */
interface Call<P> {
  req: FastifyRequest;
  reply: FastifyReply;
  /** f=pjson: the answer indented. */
  pretty: boolean;
  caller: Caller | null;
  params: P;
  path: Record<string, string>;
}

export function operation<S extends z.ZodType, R, T = undefined>(app: FastifyInstance, def: PublicOperation<S, R> | SignedInOperation<S, R, T>): void {
  const portal = app.portal;
  declaredOperations(app).push({
    method: def.method,
    path: def.path,
    params: def.params,
    access: def.access ?? 'signedIn',
    longParams: def.longParams,
    authority: def.authority,
  });
  const publicOnly = portal.config.localExtras === false;
  if (publicOnly && def.localOnly) {
    app.route({
      method: ['GET', 'POST'],
      url: def.path,
      handler: async (req) => {
        throw unknownOperation(req.url.split('?')[0]);
      },
    });
    return;
  }
  const localParams = publicOnly ? (def.localParams ?? []) : [];
  const userIdInPath = takesUserIdInPath(def.path);
  const extras = publicOnly ? (def.extras ?? []) : [];
  const lookups = app.callerLookups;
  // Synchronous wherever nothing has to be waited for (a caller from a kept token row, no path user
  // or target to read, a handler answering kept text: community/self): each await costs a promise and
  // a turn of the microtask queue, and an async handler's promise more. A throw reaches Fastify's
  // error handler as a rejection does.
  const handler = (req: FastifyRequest, reply: FastifyReply): Answered | Promise<Answered> => {
    const raw = localParams.length ? Object.fromEntries(Object.entries(rawParams(req)).filter(([k]) => !localParams.includes(k))) : rawParams(req);
    checkRequest(req, raw, def.longParams);
    const pretty = responseFormat(raw.f, def.csv) === 'pjson';
    const token = tokenFrom(req, raw);
    const resolving = token ? callerOfRequest(req, lookups, portal.db, token, portal.clock.now()) : null;
    return resolving instanceof Promise
      ? resolving.then((caller) => withCaller(req, reply, raw, pretty, caller))
      : withCaller(req, reply, raw, pretty, resolving);
  };
  const withCaller = (req: FastifyRequest, reply: FastifyReply, raw: RawParams, pretty: boolean, caller: Caller | null): Answered | Promise<Answered> => {
    if (!caller && def.access !== 'public') throw tokenRequired();
    const call: Call<z.output<S>> = { req, reply, pretty, caller, params: parseParams(def.params, raw), path: req.params as Record<string, string> };
    if ((userIdInPath && call.path.username) || (def.target && caller)) return withTarget(call);
    if (caller) decideOwn(def.authority, caller, call.path);
    return run(call, undefined);
  };
  const withTarget = async (call: Call<z.output<S>>) => {
    const { caller, path } = call;
    if (userIdInPath && path.username) path.username = await usernameOfPath(lookups, portal.db, caller, path.username);
    let target: T | undefined;
    if (def.target && caller) {
      const loaded = await def.target.load({ caller, path, portal, params: call.params });
      decide(def.authority, caller, loaded, def.target.refusals);
      target = loaded.value;
    } else if (caller) decideOwn(def.authority, caller, path);
    return run(call, target);
  };
  const run = ({ req, reply, pretty, caller, params, path }: Call<z.output<S>>, target: T | undefined): Answered | Promise<Answered> => {
    const result = (def.handler as SignedInOperation<S, R, T | undefined>['handler'])({
      params,
      caller: caller as Caller,
      path,
      portal,
      req,
      reply,
      target,
      reach: reachOf(caller, def.authority),
    });
    return result instanceof Promise ? result.then((r: R) => answer(reply, pretty, r)) : answer(reply, pretty, result);
  };
  const answer = (reply: FastifyReply, pretty: boolean, result: R): Answered => {
    // A handler that answered itself (a file, an empty body) returns the reply.
    if (reply.sent || (result as unknown) === reply) return reply;
    const body =
      result instanceof JsonText && !pretty && !extras.length
        ? result.text
        : JSON.stringify(withoutExtras(result instanceof JsonText ? (JSON.parse(result.text) as unknown) : result, extras), null, pretty ? 2 : undefined);
    reply.type('application/json; charset=utf-8').send(body);
    // Sent: nothing for Fastify to do with the handler's result.
    return undefined;
  };
  if (def.method === 'read') {
    app.route({ method: ['GET', 'POST'], url: def.path, exposeHeadRoute: def.head === true, config: { files: def.files, authority: def.authority }, handler });
  } else {
    app.post(def.path, { config: { files: def.files, authority: def.authority } }, handler);
    app.get(def.path, async () => {
      throw new ApiError(405, 'This operation is only available through POST.', ['Use HTTP POST for this operation.']);
    });
  }
}

/** One declared operation, as the app records it (tests walk them all). */
export interface DeclaredOperation {
  method: 'read' | 'write';
  path: string;
  params: z.ZodType;
  access: 'public' | 'signedIn';
  longParams?: LongParams;
  authority: Authority;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every operation declared on this app, in declaration order. */
    operations: DeclaredOperation[];
  }
}

/** This app's own list (one per instance, so two apps in one process never share it). */
function declaredOperations(app: FastifyInstance): DeclaredOperation[] {
  if (!app.hasDecorator('operations')) app.decorate('operations', []);
  return app.operations;
}

/** The routes whose `:username` segment may carry a user id instead (userPath.ts). */
function takesUserIdInPath(routePath: string): boolean {
  return routePath.startsWith(`${REST}/content/users/:username`) || routePath.startsWith(`${REST}/community/users/:username`);
}

function responseFormat(f: unknown, csv = false): 'json' | 'pjson' | 'csv' {
  if (f === undefined || f === '' || f === 'json' || f === 'html') return 'json';
  if (f === 'pjson') return 'pjson';
  if (csv && f === 'csv') return 'csv';
  if (csv)
    throw new ApiError(400, 'Invalid or missing input parameters.', [`'f' must be one of: json, pjson, csv`], undefined, {
      f: 'must be one of: json, pjson, csv',
    });
  throw new ApiError(400, 'Invalid or missing input parameters.', [`'f' must be one of: json, pjson`], undefined, { f: 'must be one of: json, pjson' });
}
