import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { isHistoryUnavailable } from './history.ts';

describe('isHistoryUnavailable', () => {
  it('reads 404, 403 and "not found"/"not supported" answers as a portal without history', () => {
    expect(isHistoryUnavailable(new ApiError({ code: 404, message: 'Not found' }))).toBe(true);
    expect(isHistoryUnavailable(new ApiError({ code: 403, message: 'You do not have permissions to access this resource or perform this operation.' }))).toBe(
      true,
    );
    expect(isHistoryUnavailable(new ApiError({ code: 400, message: 'Unable to process request.', details: ['Operation not supported.'] }))).toBe(true);
    expect(isHistoryUnavailable(new ApiError({ code: 400, message: 'Could not be found.' }))).toBe(true);
  });
  it('keeps other errors as errors', () => {
    expect(isHistoryUnavailable(new ApiError({ code: 400, message: "Invalid 'fromDate'." }))).toBe(false);
    expect(isHistoryUnavailable(new ApiError({ code: 500, message: 'Internal error' }))).toBe(false);
    expect(isHistoryUnavailable(new Error('boom'))).toBe(false);
  });
});
