/**
 * Multipart bodies: text fields become parameters like urlencoded ones; file parts are streamed to
 * temporary files (memory stays flat whatever the size) and removed after the response unless an
 * operation moved them into the blob store. A file part that arrives before the request's token is
 * spooled within per-request, per-address and per-process caps; the others after the caller is
 * authorised — straight into the blob store while they arrive where the operation says where
 * (FileParams.streamTo: addPart), with no temporary file at all.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import v8 from 'node:v8';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../../shared/limits.ts';
import type { PortalContext } from '../context.ts';
import { BlobStoreUnavailableError } from '../store/blobs.ts';
import { callerOfRequest, tokenFrom, type Caller } from './auth.ts';
import { grantsOthers, type Authority } from './authority.ts';
import { requireOwnerNeeds } from './policies.ts';
import { printable, refuseParam, unstorable } from './boundary.ts';
import { ApiError, forbidden, tokenRequired } from './errors.ts';
import type { RawParams, StoredUpload, UploadedFile } from './params.ts';

/**
 * The file parts an operation reads (declared beside its path in operation.ts). A multipart body
 * with any other file part, a second part of one name, or a part over its cap is refused before
 * that part is stored; an operation without this takes no file at all.
 */
export interface FileParams {
  /** Each file parameter the operation reads, with the most bytes one part may hold. */
  parts: Readonly<Record<string, number>>;
  /**
   * Where a part may go while it arrives, asked once the caller is authorised (so only when the
   * token came before the part): a sink that stores the stream and says what it stored, or
   * undefined to take the part as a temporary file as usual. The part's cap is checked before each
   * chunk reaches the sink; a sink whose stream fails (over the cap, the client gone) keeps nothing.
   */
  streamTo?: (intake: PartIntake) => Promise<PartSink | undefined>;
}

/** What a streamTo decision can see: the request, its caller, the fields before the part. */
export interface PartIntake {
  req: FastifyRequest;
  portal: PortalContext;
  caller: Caller;
  field: string;
  /** The query string and the fields that came before this part. */
  params: RawParams;
  /** The most bytes the part may hold. */
  limit: number;
}

export type PartSink = (source: AsyncIterable<Buffer>) => Promise<StoredUpload>;

declare module 'fastify' {
  interface FastifyRequest {
    uploadedFiles?: UploadedFile[];
    /** Set by an operation's onRequest hook to cap this request's file size (e.g. chunked uploads). */
    uploadByteCap?: { bytes: number; message: string };
  }
  interface FastifyContextConfig {
    /** The route's file parameters (operation.ts); absent: the route takes no file. */
    files?: FileParams;
    /** The route's declared authority (operation.ts): who may send files into another member's path. */
    authority?: Authority;
  }
}

/**
 * @fastify/multipart's hooks that only clean up after its `saveRequestFiles()`, which this service
 * never calls (collect() streams the parts itself; discardUpload removes what it wrote). Left out
 * because they run on every request, multipart or not: an async onRequest hook (a promise, a turn
 * of the microtask queue and a 'close' listener on the response) and an async onResponse hook.
 */
const SAVED_FILES_HOOKS: ReadonlySet<string> = new Set(['onRequest', 'onResponse']);

/** The multipart body parser (`req.isMultipart()`, `req.parts()`) on `app`, without SAVED_FILES_HOOKS. */
export function registerMultipartParser(app: FastifyInstance): Promise<void> {
  const withoutSavedFilesHooks: FastifyInstance = new Proxy(app, {
    get(target, prop) {
      if (prop === 'addHook') {
        return (name: string, hook: unknown) =>
          SAVED_FILES_HOOKS.has(name) ? withoutSavedFilesHooks : (target.addHook as (n: string, h: unknown) => FastifyInstance)(name, hook);
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  // Called on the instance itself rather than registered: registering would hand the plugin the
  // real instance (it is a root-level plugin), hooks and all.
  return new Promise((resolve, reject) => multipart(withoutSavedFilesHooks, { limits: multipartLimits }, (err) => (err ? reject(err) : resolve())));
}

export function installMultipartBodies(app: FastifyInstance, portal: PortalContext): void {
  // Callback hooks: most requests are not multipart and pass through without a promise.
  app.addHook('preHandler', (req, reply, done) => {
    if (!req.isMultipart()) return done();
    collect(req, reply, portal).then((body) => {
      req.body = body;
      done();
    }, done);
  });
  // Only a route that declares file parts ever holds uploaded files (collect() refuses a file part
  // any other route is sent), so only those routes get the clean-up after the answer. A hook on
  // every route would have every response watched for its end (Fastify listens for 'finish' and
  // 'error' on each response while any onResponse hook applies), community/self's included.
  const discardUploads = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const files = req.uploadedFiles ?? [];
    if (!files.length) return done();
    Promise.all(files.map((f) => discardUpload(portal, f))).then(() => done(), done);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.files) return;
    const own = route.onResponse;
    route.onResponse = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), discardUploads];
  });
}

/**
 * After the answer: the temporary file, or a file stored while it arrived that no row came to name.
 * (Store parts of an object store's upload that no row names need nothing: no commit lists them.)
 */
async function discardUpload(portal: PortalContext, file: UploadedFile): Promise<void> {
  if (file.path) await rm(file.path, { force: true });
  const key = file.stored?.blobKey;
  if (key && !file.stored?.claimed)
    await portal.blobs.remove(key).catch((err: unknown) => portal.log.warn({ err, key }, 'could not remove an unused upload; retention will'));
}

/**
 * File bytes received before their request's token was seen, spooled to temporary files (memory
 * stays flat) and counted per source address and over the process while the caller is unknown.
 * rest-js's addItem/addItemPart and browsers' FormData put the `token` field after the file, so an
 * honest upload's file can arrive before its caller is known; these caps keep what strangers can
 * make the service hold on disk to a bounded amount (docs/security.md "Uploads before the token").
 */
const spooledBySource = new Map<string, number>();
let spooledAll = 0;

/** What one request has spooled before its token; `release` gives its bytes back to the budgets. */
function beforeTokenBudget(source: string) {
  let mine = 0;
  return {
    take(n: number) {
      const ofSource = spooledBySource.get(source) ?? 0;
      if (mine + n > LIMITS.fileBytesBeforeToken) throw beforeTokenTooLarge('this request', LIMITS.fileBytesBeforeToken);
      if (ofSource + n > LIMITS.fileBytesBeforeTokenPerSource)
        throw beforeTokenTooLarge('the uploads of one address at once', LIMITS.fileBytesBeforeTokenPerSource);
      if (spooledAll + n > LIMITS.fileBytesBeforeTokenAllRequests) throw beforeTokenTooLarge('all uploads at once', LIMITS.fileBytesBeforeTokenAllRequests);
      mine += n;
      spooledAll += n;
      spooledBySource.set(source, ofSource + n);
    },
    release() {
      if (!mine) return;
      spooledAll -= mine;
      const left = (spooledBySource.get(source) ?? 0) - mine;
      if (left > 0) spooledBySource.set(source, left);
      else spooledBySource.delete(source);
      mine = 0;
    },
  };
}

/**
 * While file parts stream in, V8's young generation keeps the size it has (semi-space growth factor
 * 1) and its old generation may double before it is marked (heap growing percent 100); V8's own
 * choices (2, and 0: its dynamic factor) again once no body streams. Every socket read of a body is
 * a fresh 64 KiB buffer: those bytes make V8 collect the young generation every few dozen megabytes,
 * each of those collections grew it, and V8 begins marking the old generation once it comes within
 * the young generation's size of its limit — a limit it had set only ~9 MB above a ~43 MB heap. The
 * request objects promoted meanwhile then set off a full collection every megabyte or so: 12–25 per
 * 512 MiB uploaded (`npm run bench:object-store`), a third of the portal's CPU time during an upload;
 * now 0–1, for an old generation a few megabytes larger while uploads run.
 */
const bodyStreams = {
  open: 0,
  begin(): () => void {
    if (this.open++ === 0) v8.setFlagsFromString('--semi-space-growth-factor=1 --heap-growing-percent=100');
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.open === 0) v8.setFlagsFromString('--semi-space-growth-factor=2 --heap-growing-percent=0');
    };
  },
};

/** A file part read before the token: spooled, and given to the handler once the caller is authorised. */
interface HeldFile {
  file: UploadedFile;
  field: string;
}

async function collect(req: FastifyRequest, reply: FastifyReply, portal: PortalContext): Promise<Record<string, unknown>> {
  const body = Object.create(null) as Record<string, unknown>;
  const declared = req.routeOptions.config?.files;
  req.uploadedFiles = [];
  const held: HeldFile[] = [];
  const budget = beforeTokenBudget(req.ip);
  let authorised = false;
  let caller: Caller | undefined;
  let tmpReady = false;
  const seen = new Set<string>();
  // Authorises the caller once a token is known; then the spooled files are the handler's.
  const authoriseWith = async (token: string) => {
    caller = await authoriseUpload(req, portal, token);
    authorised = true;
    for (const h of held.splice(0)) body[h.field] = h.file;
    budget.release();
  };
  const ensureTmp = async () => {
    if (!tmpReady) await mkdir(portal.tmpDir, { recursive: true });
    tmpReady = true;
  };
  const tokenSoFar = () => tokenFrom(req, { ...((req.query ?? {}) as RawParams), ...body });
  const bodyStreamEnded = declared ? bodyStreams.begin() : undefined;
  try {
    const cap = req.uploadByteCap;
    const largest = Math.max(0, ...Object.values(declared?.parts ?? {}));
    const fileSize = Math.min(largest, cap?.bytes ?? Infinity);
    // busboy's own cap: the largest part this operation takes (each part's own cap is checked below).
    for await (const part of req.parts({ limits: { fileSize: fileSize > 0 ? fileSize : multipartLimits.fileSize } })) {
      checkPartNames(part);
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw new ApiError(413, 'The request is larger than this service accepts.', [`'${part.fieldname}' is longer than ${LIMITS.fieldBytes} bytes`]);
        body[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        if (part.fieldname === 'token' && held.length) {
          const token = tokenSoFar();
          if (token) await authoriseWith(token);
        }
        continue;
      }
      const field = part.fieldname;
      const partCap = declared?.parts[field];
      if (partCap === undefined) {
        const takes = Object.keys(declared?.parts ?? {});
        throw refuseParam(
          field,
          takes.length ? `is a file part; this operation takes files only as ${takes.join(', ')}` : 'is a file part; this operation takes no file',
        );
      }
      if (seen.has(field)) throw refuseParam(field, 'was sent as a file more than once; this operation takes one');
      seen.add(field);
      if (!authorised) {
        const token = tokenSoFar();
        if (token) await authoriseWith(token);
      }
      const file: UploadedFile = {
        kind: 'file',
        path: path.join(portal.tmpDir, randomUUID()),
        filename: path.basename(part.filename || part.fieldname),
        mimetype: part.mimetype,
        size: 0,
      };
      const limit = Math.min(partCap, cap?.bytes ?? Infinity);
      const tooLarge = () =>
        new ApiError(413, cap && cap.bytes <= partCap ? cap.message : 'The uploaded file is larger than this service accepts.', [
          `'${field}' is larger than ${limit} bytes`,
        ]);
      const withinCap = byteCap(limit, tooLarge);
      const sink =
        caller && declared?.streamTo
          ? await declared.streamTo({ req, portal, caller, field, params: { ...((req.query ?? {}) as RawParams), ...body }, limit })
          : undefined;
      if (sink) {
        file.path = '';
        req.uploadedFiles.push(file);
        await streamInto(sink, part.file, withinCap, file);
        // Cut at busboy's cap: what was stored is removed after the answer (no row names it).
        if (part.file.truncated) throw tooLarge();
        body[field] = file;
        continue;
      }
      await ensureTmp();
      req.uploadedFiles.push(file);
      // No token yet: spool within the budgets until one arrives (removed after the answer if none does).
      if (!authorised) held.push({ file, field });
      const check = authorised
        ? withinCap
        : (n: number) => {
            withinCap(n);
            budget.take(n);
          };
      await pipeline(part.file, counted(check), createWriteStream(file.path));
      if (part.file.truncated) throw tooLarge();
      file.size = part.file.bytesRead;
      if (authorised) body[field] = file;
    }
    // The body ended with files still held: no token came (or none that a field could carry).
    if (held.length) {
      const token = tokenSoFar();
      if (!token) throw tokenRequired();
      await authoriseWith(token);
    }
  } catch (err) {
    // The rest of a refused body is not read: close the connection after the answer, or the client
    // (which cannot read the answer before it has sent its body) waits on a body nobody reads.
    reply.header('connection', 'close');
    if (err instanceof ApiError || err instanceof BlobStoreUnavailableError) throw err;
    const e = err as { code?: string; message?: string; statusCode?: number };
    if (req.uploadByteCap && e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, req.uploadByteCap.message, [e.message ?? 'too large']);
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, 'The uploaded file is larger than this service accepts.', [e.message ?? 'too large']);
    throw new ApiError(e.statusCode && e.statusCode < 500 ? e.statusCode : 400, 'The multipart body could not be read.', [e.message ?? String(err)]);
  } finally {
    budget.release();
    bodyStreamEnded?.();
  }
  return body;
}

/**
 * The part through its cap into `sink`, as one chain of iterators (no stream between them: each
 * hop costs per chunk): a part over its cap or cut off ends the sink's loop with its error (the sink
 * then keeps nothing), and a sink that fails stops reading the part.
 */
async function streamInto(sink: PartSink, source: Readable, check: (n: number) => void, file: UploadedFile): Promise<void> {
  file.stored = await sink(counted(check)(source));
  file.size = file.stored.size;
}

/** Too many bytes before the token: a size refusal (413) that says how to send the file instead. */
const beforeTokenTooLarge = (scope: string, bytes: number) =>
  new ApiError(413, 'The file sent before the token is larger than this service accepts.', [
    `File bytes sent before the token are accepted up to ${bytes / (1024 * 1024)} MB for ${scope}; send the token first (the X-Esri-Authorization header, the query string, or a field before the file), or the file in smaller parts (addPart).`,
  ]);

/** A stream stage that counts each chunk against `take` (which throws when a budget is spent). */
function counted(take: (n: number) => void) {
  return async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      take(chunk.length);
      yield chunk;
    }
  };
}

/** A `counted` check that fails as soon as more than `limit` bytes passed (before they reach the disk). */
function byteCap(limit: number, tooLarge: () => Error) {
  let n = 0;
  return (chunk: number) => {
    n += chunk;
    if (n > limit) throw tooLarge();
  };
}

/**
 * Before a file byte is stored: the token names a signed-in member who is the path's user, holding
 * what the operation's declaration asks of the owner (ownerNeeds), or whom the declared authority
 * lets act on another member's content.
 * The operation checks everything again with the object in hand; this only keeps strangers' bytes
 * off the disk.
 */
async function authoriseUpload(req: FastifyRequest, portal: PortalContext, token: string): Promise<Caller> {
  const caller = await callerOfRequest(req, req.server.callerLookups, portal.db, token, portal.clock.now());
  const authority = req.routeOptions.config?.authority;
  const username = (req.params as Record<string, string | undefined>).username;
  // The path names the member by username or, as the Maps SDK does, by id (userPath.ts).
  if (username === undefined || caller.username.toLowerCase() === username.toLowerCase() || caller.userId === username) {
    requireOwnerNeeds(caller, authority);
    return caller;
  }
  if (authority && grantsOthers(caller, authority, caller.orgId)) return caller;
  throw forbidden(`Only ${username} can do this.`);
}

/**
 * Field names and filenames get the parameter boundary check before a file is written: busboy passes
 * NUL through (also percent-decoded from RFC 5987 `filename*`) and does not apply fieldNameSize to
 * multipart bodies. Names are checked again with the other parameters (length included).
 */
function checkPartNames(part: { fieldname: string; filename?: string; type: string }): void {
  const name = part.fieldname;
  const badName = unstorable(name);
  if (badName) throw refuseParam(printable(name), `is a field name that ${badName}`);
  if (part.type !== 'file') return;
  const filename = part.filename ?? '';
  const badFile = unstorable(filename);
  if (badFile) throw refuseParam(name, `has a filename that ${badFile}`);
  if (filename.length > FILENAME_CHARS) throw refuseParam(name, `has a filename longer than ${FILENAME_CHARS} characters`);
}

const FILENAME_CHARS = 1024;

export const multipartLimits = {
  fieldSize: LIMITS.fieldBytes,
  fields: 1000,
  files: 10,
  parts: 1010,
  // Per-file cap; item uploads larger than this go through multipart (addPart) uploads.
  fileSize: 2 * 1024 * 1024 * 1024,
};
