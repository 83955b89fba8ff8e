/**
 * Errors from the portal. The service answers failures with HTTP 200 and the error envelope
 * `{error:{code, messageCode?, message, details, fieldErrors?}}` (facts §1.5); `request()` turns
 * that, a non-2xx answer, an unreadable body and an unreachable portal into an ApiError.
 */
export interface ApiErrorInit {
  code: number;
  message: string;
  messageCode?: string;
  details?: unknown[];
  fieldErrors?: Record<string, string>;
  url?: string;
}

/** Code used when the portal could not be reached at all (no HTTP answer). */
export const NETWORK_ERROR = 0;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly messageCode?: string;
  readonly details: unknown[];
  readonly fieldErrors?: Record<string, string>;
  /** The operation's URL (without query string). */
  readonly url?: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.code = init.code;
    this.messageCode = init.messageCode;
    this.details = init.details ?? [];
    this.fieldErrors = init.fieldErrors;
    this.url = init.url;
  }

  /** 498 (invalid or expired token) and 499 (token required): the session is no longer usable. */
  get isSessionInvalid(): boolean {
    return this.code === 498 || this.code === 499;
  }

  get isForbidden(): boolean {
    return this.code === 403;
  }

  /** The details as readable lines (objects, e.g. reassign blockers, become their message or JSON). */
  get detailLines(): string[] {
    return this.details.flatMap((d) => {
      if (d === null || d === undefined || d === '') return [];
      if (typeof d === 'string') return [d];
      if (typeof d === 'object' && 'message' in d && typeof d.message === 'string') {
        return [(d as { message: string }).message];
      }
      return [JSON.stringify(d)];
    });
  }
}

export function isSessionInvalid(err: unknown): boolean {
  return err instanceof ApiError && err.isSessionInvalid;
}

/**
 * What to tell a person: the details when there are any (they say what went wrong, e.g.
 * "Invalid username or password."), else the message. Repeats are dropped.
 */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const lines = err.detailLines.filter((l) => l !== err.message);
    return lines.length ? lines.join(' ') : err.message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The message and every detail that adds to it: for places that show what the portal said in full. */
export function describeErrorFully(err: unknown): string {
  if (err instanceof ApiError) {
    const lines = err.detailLines.filter((l) => l !== err.message);
    return [err.message, ...lines].join(' ');
  }
  return describeError(err);
}
