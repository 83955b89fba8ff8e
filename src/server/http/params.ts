/**
 * Request decoding: one flat parameter object from the query string and the body (urlencoded or
 * multipart), validated by the operation's zod schema from src/shared/contract.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkParsedParams } from './boundary.ts';
import { ApiError } from './errors.ts';

/**
 * A file part of a multipart request, already streamed to a temporary file (`path`) or, where the
 * operation takes parts as they arrive (FileParams.streamTo), into the blob store (`stored`).
 */
export interface UploadedFile {
  kind: 'file';
  /** The temporary file; '' when the part went into the store instead. */
  path: string;
  filename: string;
  mimetype: string;
  size: number;
  stored?: StoredUpload;
}

/** A parameter that must be a file part of a multipart request (an UploadedFile), not a text field. */
export const uploadedFileParam = (message = 'must be a file part') =>
  z.custom<UploadedFile>((v) => !!v && typeof v === 'object' && (v as UploadedFile).kind === 'file', message);

/** A part the operation's streamTo put in the blob store while it arrived. */
export interface StoredUpload {
  /** A file of its own in the store, or null when the bytes are parts of the store's own multipart upload. */
  blobKey: string | null;
  /** Those parts, in order (empty for a file). */
  storeParts: { n: number; etag: string }[];
  size: number;
  /** Set by the handler once a row names what was stored; otherwise the file is removed after the answer. */
  claimed?: boolean;
}

export type RawParams = Record<string, unknown>;

/** Query first, body over it (the body is what form clients mean; `partNum` may come by query). */
export function rawParams(req: FastifyRequest): RawParams {
  const query = (req.query ?? {}) as RawParams;
  const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as RawParams) : {};
  return { ...query, ...body };
}

/** Parse with the operation's schema; every problem becomes one detail naming its parameter. */
export function parseParams<S extends z.ZodType>(schema: S, raw: RawParams): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) {
    // JSON-valued parameters were parsed just now; their strings and keys get the boundary check too.
    checkParsedParams(result.data);
    return result.data;
  }
  const fieldErrors: Record<string, string> = {};
  const details = result.error.issues.map((issue) => {
    const param = issue.path.length ? issue.path.map(String).join('.') : '(request)';
    const problem = describeIssue(issue, raw);
    fieldErrors[param] ??= problem;
    return `'${param}' ${problem}`;
  });
  throw new ApiError(400, 'Invalid or missing input parameters.', details, undefined, fieldErrors);
}

function describeIssue(issue: z.core.$ZodIssue, raw: RawParams): string {
  const top = issue.path[0];
  const absent = typeof top === 'string' && (raw[top] === undefined || raw[top] === null);
  if (issue.code === 'invalid_type' && absent) return 'is required';
  if (issue.code === 'invalid_type' && Array.isArray(typeof top === 'string' ? raw[top] : undefined)) return 'was sent more than once';
  if (issue.code === 'invalid_value' && 'values' in issue) return `must be one of: ${issue.values.map(String).join(', ')}`;
  return issue.message;
}
