/**
 * One check of every value a request carries, where parameters are parsed and before any schema or
 * SQL sees them: characters PostgreSQL cannot store (NUL) or UTF-8 cannot encode (lone surrogates,
 * which would otherwise be stored silently changed), values longer than the operation accepts, and
 * more parameters than any operation has. A refusal is the 400 envelope naming the parameter.
 *
 * The same walk runs over a schema's parsed output, because JSON-valued parameters are parsed
 * inside the schema and `"\u0000"` in JSON text is plain ASCII until then.
 */
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '../../shared/limits.ts';
import { ApiError } from './errors.ts';

/** NUL, a high surrogate without its low half, or a low surrogate without its high half. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Per-operation exceptions to the default value cap, by parameter name (e.g. item `text` data). */
export type LongParams = Readonly<Record<string, number>>;

/** The refusal for one value: 400, the parameter named in details and fieldErrors. */
export function refuseParam(param: string, problem: string): ApiError {
  return new ApiError(400, 'Invalid or missing input parameters.', [`'${param}' ${problem}`], undefined, { [param]: problem });
}

/** Why a string cannot be accepted, or null. */
export function unstorable(s: string): string | null {
  const m = UNSTORABLE.exec(s);
  if (!m) return null;
  const code = m[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code === 0 ? `contains a character that cannot be stored (${hex})` : `contains a lone surrogate that cannot be stored (${hex})`;
}

/** A parameter name fit to appear in a message: bad characters replaced, at most 100 characters. */
export function printable(name: string): string {
  const clean = name.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}

/**
 * Parameters as decoded from the query string and the body (urlencoded, multipart or JSON): their
 * number, each name, and every string inside each value (repeated parameters arrive as arrays, a
 * JSON body as nested objects).
 */
export function checkRawParams(raw: Record<string, unknown>, longParams: LongParams = {}): void {
  const names = Object.keys(raw);
  if (names.length > LIMITS.paramsPerRequest) {
    throw new ApiError(400, 'Invalid or missing input parameters.', [
      `The request has ${names.length} parameters; at most ${LIMITS.paramsPerRequest} are accepted.`,
    ]);
  }
  for (const name of names) {
    checkName(name);
    checkValue(name, raw[name], longParams[name] ?? LIMITS.paramChars);
  }
}

/** Path segments (ids and usernames in the URL reach SQL as well). */
export function checkPathParams(params: unknown): void {
  if (!params || typeof params !== 'object') return;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    // The wildcard of `…/info/*` is a file path inside the item; name it so.
    checkValue(name === '*' ? 'path' : name, value, LIMITS.paramChars);
  }
}

/** A value from a header that the service reads as a parameter (the token). */
export function checkHeaderParam(param: string, value: unknown): void {
  checkValue(param, value, LIMITS.paramChars);
}

/**
 * The schema's output: strings and keys produced by JSON-valued parameters. Lengths are the
 * schema's business by now; only characters are checked. Files (already checked) are skipped.
 */
export function checkParsedParams(parsed: unknown): void {
  if (!isPlain(parsed)) return;
  for (const [name, value] of Object.entries(parsed)) checkValue(name, value, Infinity);
}

function checkName(name: string): void {
  const bad = unstorable(name);
  if (bad) throw refuseParam(printable(name), `is a parameter name that ${bad}`);
  if (name.length > LIMITS.paramNameChars) throw refuseParam(printable(name), `is a parameter name longer than ${LIMITS.paramNameChars} characters`);
}

/**
 * Walks one value without recursion (deeply nested JSON must not exhaust the stack here), and
 * refuses nesting deeper than LIMITS.jsonDepth, which would exhaust it later (JSON.stringify, jsonb).
 */
function checkValue(param: string, value: unknown, maxChars: number): void {
  // Most values are one string, or absent (a header not sent): checked without the walk below.
  if (typeof value === 'string') return checkString(param, value, maxChars);
  if (value === undefined) return;
  const stack: [unknown, number][] = [[value, 0]];
  let seen = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (++seen > LIMITS.valuesPerParam) throw refuseParam(param, `holds more than ${LIMITS.valuesPerParam} values`);
    if (typeof v === 'string') {
      checkString(param, v, maxChars);
      continue;
    }
    if (!Array.isArray(v) && !isPlain(v)) continue;
    if (depth >= LIMITS.jsonDepth) throw refuseParam(param, `must not be nested more than ${LIMITS.jsonDepth} levels deep`);
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      const bad = unstorable(k);
      if (bad) throw refuseParam(param, `holds a key that ${bad}`);
      stack.push([x, depth + 1]);
    }
  }
}

/** A string value: storable characters, at most `maxChars` of them. */
function checkString(param: string, v: string, maxChars: number): void {
  const bad = unstorable(v);
  if (bad) throw refuseParam(param, bad);
  if (v.length > maxChars) throw refuseParam(param, `is too long (at most ${maxChars} characters)`);
}

/** Object literals and JSON objects; not files' streams, buffers, dates or class instances. */
function isPlain(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Everything an operation reads from the request: path segments, the token header, parameters. */
/** The headers a token may come in (http/auth.ts tokenFrom). */
const TOKEN_HEADERS = ['x-esri-authorization', 'authorization'] as const;

export function checkRequest(req: FastifyRequest, raw: Record<string, unknown>, longParams?: LongParams): void {
  checkPathParams(req.params);
  for (const header of TOKEN_HEADERS) checkHeaderParam('token', req.headers[header]);
  checkRawParams(raw, longParams);
}
