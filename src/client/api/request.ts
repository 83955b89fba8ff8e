/**
 * The request core: every call to the portal goes through `request()`. It knows the portal base URL
 * (…/sharing/rest) and the token, always sends `f=json`, sends the token as the `token` parameter
 * (query string for GET, form body for POST), form-encodes POST bodies the way the portal's own
 * clients do (facts §1.4), parses JSON and turns the error envelope into an ApiError. When the
 * portal refuses the session's token (498) it asks the installed refresher once and repeats the
 * call with the new token. No React here.
 */
import { ApiError, NETWORK_ERROR } from './errors.ts';

export type ParamValue =
  string | number | boolean | Date | null | undefined | readonly (string | number)[] | Record<string, unknown> | readonly Record<string, unknown>[];
export type Params = Record<string, ParamValue>;

export interface Connection {
  /** The portal's REST base, e.g. https://host/portal/sharing/rest (no trailing slash). */
  portalUrl: string;
  token?: string;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** `rest` (default): under the portal URL; `admin`: under …/portaladmin of the same portal. */
  root?: 'rest' | 'admin';
  /** Overrides the configured connection (sign-in uses a portal URL not yet stored). */
  portalUrl?: string;
  /** Overrides the configured token; `null` sends none. */
  token?: string | null;
  signal?: AbortSignal;
  /** The answer's `status: "failed"` is data, not an error (an async job's status). */
  failedStatusIsData?: boolean;
}

/** GET URLs longer than this are sent as POST instead (every read also accepts POST). */
const MAX_URL_LENGTH = 2000;

/** The portal on the console's own origin: the local portal serving this console. */
export function defaultPortalUrl(): string {
  return typeof location !== 'undefined' && location.origin && location.origin !== 'null'
    ? `${location.origin}/sharing/rest`
    : 'http://127.0.0.1:3000/sharing/rest';
}

let connection: Connection = { portalUrl: defaultPortalUrl() };

/**
 * Asked for a new token when the portal refused the configured one (498); resolves with the token
 * to retry with, or null when there is none (no refresh token, or the refresh failed). The
 * session store installs it, so the request core needs no knowledge of sessions.
 */
export type TokenRefresher = (portalUrl: string, refusedToken: string) => Promise<string | null>;

let refresher: TokenRefresher | undefined;

export function setTokenRefresher(next: TokenRefresher | undefined): void {
  refresher = next;
}

/**
 * A 498 for the configured token: ask the refresher once. The new token when the call is worth
 * repeating, else null (the caller then reports the original error).
 */
async function tokenAfterRefusal(err: unknown, portalUrl: string, usedToken: string | undefined, tokenWasConfigured: boolean): Promise<string | null> {
  if (!refresher || !usedToken || !tokenWasConfigured || !(err instanceof ApiError) || err.code !== 498) return null;
  const next = await refresher(portalUrl, usedToken).catch(() => null);
  return next && next !== usedToken ? next : null;
}

/** Points the API module at a portal (and a token). The session store calls this. */
export function configureApi(next: Connection): void {
  connection = { portalUrl: normalizePortalUrl(next.portalUrl), token: next.token };
}

export function currentConnection(): Readonly<Connection> {
  return connection;
}

/** Trims, drops trailing slashes. */
export function normalizePortalUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** …/sharing/rest → …/portaladmin (the portal's administration API lives beside the REST API). */
export function adminUrlOf(portalUrl: string): string {
  const base = normalizePortalUrl(portalUrl);
  if (!/\/sharing\/rest$/i.test(base)) throw new Error(`Not a portal REST URL (…/sharing/rest): ${base}`);
  return base.replace(/\/sharing\/rest$/i, '/portaladmin');
}

/** One parameter value as the wire wants it; `undefined` means "leave the key out". */
export function encodeParamValue(value: ParamValue): string | undefined {
  if (value === null || value === undefined || typeof value === 'function') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return String(value.valueOf());
  if (Array.isArray(value)) {
    if (value.length && typeof value[0] === 'object' && value[0] !== null) return JSON.stringify(value);
    return value.join(',');
  }
  return JSON.stringify(value);
}

/** Params → URLSearchParams, with f=json unless the caller chose another format. */
export function encodeParams(params: Params, token?: string): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const encoded = encodeParamValue(value);
    if (encoded !== undefined) out.append(key, encoded);
  }
  if (!out.has('f')) out.set('f', 'json');
  if (token && !out.has('token')) out.set('token', token);
  return out;
}

function errorFromEnvelope(body: { error: Record<string, unknown> }, url: string): ApiError {
  const e = body.error;
  const details = Array.isArray(e.details) ? e.details : e.details === undefined || e.details === null ? [] : [e.details];
  const fieldErrors = e.fieldErrors && typeof e.fieldErrors === 'object' ? (e.fieldErrors as Record<string, string>) : undefined;
  return new ApiError({
    code: typeof e.code === 'number' ? e.code : Number(e.code) || 500,
    messageCode: typeof e.messageCode === 'string' ? e.messageCode : undefined,
    message: typeof e.message === 'string' && e.message ? e.message : 'The portal reported an error.',
    details,
    fieldErrors,
    url,
  });
}

/**
 * Calls one REST operation. `path` is relative to the portal URL (`community/self`), or to
 * …/portaladmin with `root: 'admin'`. Resolves with the parsed JSON body; rejects with ApiError.
 */
export async function request<T>(path: string, params: Params = {}, options: RequestOptions = {}): Promise<T> {
  const portalUrl = normalizePortalUrl(options.portalUrl ?? connection.portalUrl);
  const token = options.token === null ? undefined : (options.token ?? connection.token);
  // Only the session's own token is refreshed: a token passed in (sign-in) is the caller's business.
  const configured = options.token === undefined && portalUrl === connection.portalUrl;
  try {
    return await send<T>(path, params, options, portalUrl, token);
  } catch (err) {
    const retryToken = await tokenAfterRefusal(err, portalUrl, token, configured);
    if (retryToken === null) throw err;
    return send<T>(path, params, options, portalUrl, retryToken);
  }
}

async function send<T>(path: string, params: Params, options: RequestOptions, portalUrl: string, token: string | undefined): Promise<T> {
  const base = options.root === 'admin' ? adminUrlOf(portalUrl) : portalUrl;
  const url = `${base}/${path.replace(/^\/+/, '')}`;
  const body = encodeParams(params, token);

  let method = options.method ?? 'GET';
  const query = body.toString();
  if (method === 'GET' && url.length + 1 + query.length > MAX_URL_LENGTH) method = 'POST';

  const response =
    method === 'GET'
      ? await fetchPortal(`${url}?${query}`, { method: 'GET', signal: options.signal, credentials: 'same-origin' }, base, url)
      : await fetchPortal(
          url,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: query,
            signal: options.signal,
            credentials: 'same-origin',
          },
          base,
          url,
        );
  return readAnswer<T>(response.status, response.statusText, await response.text(), url, options.failedStatusIsData);
}

/**
 * fetch, with a failure to reach the portal (not an abort, which the caller asked for) turned into
 * the NETWORK_ERROR ApiError naming `where`.
 */
async function fetchPortal(target: string, init: RequestInit, where: string, url: string): Promise<Response> {
  try {
    return await fetch(target, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    if (err instanceof Error && err.name === 'AbortError') throw err;
    throw new ApiError({
      code: NETWORK_ERROR,
      messageCode: 'NETWORK_ERROR',
      message: 'The portal could not be reached.',
      details: [`No answer from ${where}. Check the portal URL and your connection.`],
      url,
    });
  }
}

/**
 * Turns a portal answer into its JSON or an ApiError: the error envelope (HTTP 200), a non-2xx
 * status, a body that is not JSON, and `{status: "failed"}` (facts §1.5 step 3).
 */
export function readAnswer<T>(httpStatus: number, statusText: string, text: string, url: string, failedStatusIsData = false): T {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (json && typeof json === 'object' && 'error' in json && json.error && typeof json.error === 'object') {
    throw errorFromEnvelope(json as { error: Record<string, unknown> }, url);
  }
  if (httpStatus < 200 || httpStatus >= 300) {
    throw new ApiError({ code: httpStatus, message: `HTTP ${httpStatus} ${statusText}`.trim(), details: [`${url} answered HTTP ${httpStatus}.`], url });
  }
  if (json === undefined || json === null || typeof json !== 'object') {
    throw new ApiError({
      code: 500,
      message: 'The portal sent an answer that is not JSON.',
      details: [`${url} did not answer with JSON. Is this a portal REST URL (…/sharing/rest)?`],
      url,
    });
  }
  const status = (json as { status?: unknown }).status;
  if (!failedStatusIsData && (status === 'failed' || status === 'failure')) {
    const msg = (json as { statusMessage?: unknown; message?: unknown }).statusMessage ?? (json as { message?: unknown }).message;
    throw new ApiError({ code: 400, message: typeof msg === 'string' ? msg : 'The operation failed.', url });
  }
  return json as T;
}

export interface FormRequestOptions extends Pick<RequestOptions, 'signal'> {
  /** Bytes of the body sent so far, as the browser reports them. */
  onUploadProgress?: (sent: number, total: number) => void;
  /** No upload progress for this long (ms) while the body is being sent fails the upload as stalled. */
  stallMs?: number;
}

/**
 * A body that makes no progress for this long is not going to finish: some servers stop reading a
 * body they refused without closing the connection, and the browser then waits for ever.
 */
export const UPLOAD_STALL_MS = 60_000;

/** The URL and token of a REST operation, as request() would address it. */
function operationUrl(path: string): { url: string; token?: string } {
  return { url: `${normalizePortalUrl(connection.portalUrl)}/${path.replace(/^\/+/, '')}`, token: connection.token };
}

type FormFields = Record<string, ParamValue | Blob | { blob: Blob; filename: string }>;

/**
 * POSTs a multipart/form-data body (files, and the fields beside them) to one REST operation.
 * Uses XMLHttpRequest because fetch cannot report upload progress. The token goes in the
 * `X-Esri-Authorization: Bearer` header (ArcGIS Online and Enterprise accept it, and allow it in
 * CORS), so the portal knows the caller before the first file byte: a portal may refuse, or stop
 * reading, file bytes that arrive before the token (as a `token` field after the file would).
 */
export async function postForm<T>(path: string, fields: FormFields, options: FormRequestOptions = {}): Promise<T> {
  const { url, token } = operationUrl(path);
  const portalUrl = normalizePortalUrl(connection.portalUrl);
  try {
    try {
      return await sendForm<T>(url, token, fields, options);
    } catch (err) {
      const retryToken = await tokenAfterRefusal(err, portalUrl, token, true);
      if (retryToken === null) throw err;
      return await sendForm<T>(url, retryToken, fields, options);
    }
  } catch (err) {
    throw token ? asUploadError(err, url) : err;
  }
}

/**
 * A 498/499 to an upload that carried the session's token is about this upload (a proxy that drops
 * the header, a body the portal stopped reading), not proof that the session ended: signing the
 * member out there would lose the form. It becomes an upload error; a session that really ended is
 * noticed by the next ordinary request.
 */
function asUploadError(err: unknown, url: string): unknown {
  if (!(err instanceof ApiError) || !err.isSessionInvalid) return err;
  return new ApiError({
    code: 400,
    messageCode: 'UPLOAD_REFUSED',
    message: 'The portal refused the upload.',
    details: [
      `The portal answered ${err.code} (${err.message}) although the upload carried the session's token. You are still signed in; try again, and if it happens again ask the portal's administrator whether a proxy drops the X-Esri-Authorization header.`,
      ...err.detailLines.filter((l) => l !== err.message),
    ],
    url,
  });
}

/** The form: plain fields first, then the files, so that nothing the portal needs waits behind a file. */
function formOf(fields: FormFields): FormData {
  const form = new FormData();
  const files: [string, Blob, string][] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) files.push([key, value, value instanceof File ? value.name : key]);
    else if (value && typeof value === 'object' && 'blob' in value && value.blob instanceof Blob) files.push([key, value.blob, String(value.filename)]);
    else {
      const encoded = encodeParamValue(value);
      if (encoded !== undefined) form.append(key, encoded);
    }
  }
  if (!form.has('f')) form.append('f', 'json');
  for (const [key, blob, filename] of files) form.append(key, blob, filename);
  return form;
}

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

function sendForm<T>(url: string, token: string | undefined, fields: FormFields, options: FormRequestOptions): Promise<T> {
  const form = formOf(fields);
  const stallMs = options.stallMs ?? UPLOAD_STALL_MS;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    if (options.signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', abort, { once: true });
    let sent = 0;
    let total = 0;
    let stalled: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const done = () => {
      settled = true;
      clearTimeout(stalled);
      options.signal?.removeEventListener('abort', abort);
    };
    // Restarted by every progress event until the whole body is sent; the answer may take longer.
    const watch = () => {
      clearTimeout(stalled);
      stalled = setTimeout(() => {
        if (settled) return;
        done();
        xhr.abort();
        const share = total ? ` at ${((100 * sent) / total).toFixed(1)} % (${mb(sent)} of ${mb(total)})` : '';
        reject(
          new ApiError({
            code: 408,
            messageCode: 'UPLOAD_STALLED',
            message: 'The upload stalled.',
            details: [`The portal accepted no more of the file for ${Math.round(stallMs / 1000)} s${share}; the upload was stopped. Try again.`],
            url,
          }),
        );
      }, stallMs);
    };
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('X-Esri-Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      sent = e.loaded;
      total = e.lengthComputable ? e.total : 0;
      watch();
      options.onUploadProgress?.(e.loaded, total);
    };
    xhr.upload.onload = () => clearTimeout(stalled);
    xhr.onload = () => {
      done();
      try {
        resolve(readAnswer<T>(xhr.status, xhr.statusText, xhr.responseText, url));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => {
      done();
      reject(
        new ApiError({
          code: NETWORK_ERROR,
          messageCode: 'NETWORK_ERROR',
          message: 'The portal could not be reached.',
          details: [`The upload to ${url} was interrupted${total ? ` after ${mb(sent)} of ${mb(total)}` : ''}.`],
          url,
        }),
      );
    };
    xhr.onabort = () => {
      if (settled) return;
      done();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(form);
    watch();
  });
}

/** A file the portal answered: its bytes and the name it gave (Content-Disposition), if any. */
export interface FetchedFile {
  blob: Blob;
  filename?: string;
}

/**
 * GETs a file (item data, an info file, a thumbnail, a CSV export) with the token in the
 * `X-Esri-Authorization: Bearer` header, never in the URL: URLs end up in history, logs and
 * Referer headers. ArcGIS Online and Enterprise accept the header too. An error envelope (HTTP 200
 * JSON) becomes an ApiError; a refused token is refreshed once, as request() does.
 */
export async function fetchFile(path: string, params: Params = {}, options: Pick<RequestOptions, 'signal'> = {}): Promise<FetchedFile> {
  const { url, token } = operationUrl(path);
  const portalUrl = normalizePortalUrl(connection.portalUrl);
  try {
    return await getFile(url, token, params, options);
  } catch (err) {
    const retryToken = await tokenAfterRefusal(err, portalUrl, token, true);
    if (retryToken === null) throw err;
    return getFile(url, retryToken, params, options);
  }
}

async function getFile(url: string, token: string | undefined, params: Params, options: Pick<RequestOptions, 'signal'>): Promise<FetchedFile> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const encoded = encodeParamValue(value);
    if (encoded !== undefined) query.set(key, encoded);
  }
  const q = query.toString();
  const target = q ? `${url}?${q}` : url;
  const response = await fetchPortal(
    target,
    { method: 'GET', headers: token ? { 'X-Esri-Authorization': `Bearer ${token}` } : {}, signal: options.signal, credentials: 'same-origin' },
    url,
    url,
  );
  const type = response.headers.get('content-type') ?? '';
  // Errors come as the JSON envelope (HTTP 200) or a non-2xx status; readAnswer reads both.
  if (!response.ok || /^application\/json/i.test(type)) {
    const text = await response.text();
    if (!response.ok || /^\s*\{\s*"error"\s*:/.test(text)) readAnswer(response.status, response.statusText, text, url);
    return { blob: new Blob([text], { type }), filename: filenameOf(response.headers.get('content-disposition')) };
  }
  return { blob: await response.blob(), filename: filenameOf(response.headers.get('content-disposition')) };
}

/** The filename of a Content-Disposition header (RFC 6266: `filename*` first, then `filename`). */
export function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain filename */
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || undefined;
}
