/**
 * API errors travel as HTTP 200 with the error envelope (spec §7). Throw an ApiError anywhere in a
 * handler; the app's error handler turns it into the envelope.
 */
import type { ErrorBody } from '../../shared/contract/errors.ts';
import { MESSAGE_CODES } from '../../shared/contract/errors.ts';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: unknown[] = [],
    readonly messageCode?: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      ...(this.messageCode ? { messageCode: this.messageCode } : {}),
      message: this.message,
      details: this.details,
      ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}),
    };
  }
}

export const tokenRequired = () => new ApiError(499, 'Token Required', ['Token Required'], MESSAGE_CODES.tokenRequired);
export const invalidToken = () => new ApiError(498, 'Invalid token.', ['Invalid token.']);

/** 403, naming what was missing so the console can say it. */
export const forbidden = (detail?: string) =>
  new ApiError(403, 'You do not have permissions to access this resource or perform this operation.', detail ? [detail] : [], MESSAGE_CODES.forbidden);

/** 400 for one bad parameter, named. */
export const badParam = (param: string, problem: string, message = 'Invalid or missing input parameters.') =>
  new ApiError(400, message, [`'${param}' ${problem}`], undefined, { [param]: problem });

export const notFound = (what: string) => new ApiError(400, `${what} does not exist or is inaccessible.`, [`${what} does not exist or is inaccessible.`]);
export const userNotFound = (username: string) =>
  new ApiError(400, `User '${username}' does not exist or is inaccessible.`, [`User '${username}' does not exist or is inaccessible.`]);

/** 503 for a request the database could not serve (down, restarting, a failover); nothing of it was acknowledged. */
export const databaseUnavailable = () =>
  new ApiError(503, 'The database is unavailable. Try again shortly.', ['The database did not answer or dropped the connection.']);
