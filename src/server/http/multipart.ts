/**
 * Multipart bodies: text fields become parameters like urlencoded ones; file parts are streamed to
 * temporary files (memory stays flat whatever the size) and removed after the response unless an
 * operation moved them into the blob store.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '../../shared/limits.ts';
import { printable, refuseParam, unstorable } from './boundary.ts';
import { ApiError } from './errors.ts';
import type { UploadedFile } from './params.ts';

declare module 'fastify' {
  interface FastifyRequest {
    uploadedFiles?: UploadedFile[];
    /** Set by an operation's onRequest hook to cap this request's file size (e.g. chunked uploads). */
    uploadByteCap?: { bytes: number; message: string };
  }
}

export function installMultipartBodies(app: FastifyInstance, tmpDir: string): void {
  // Callback hooks: most requests are not multipart and pass through without a promise.
  app.addHook('preHandler', (req, _reply, done) => {
    if (!req.isMultipart()) return done();
    collect(req, tmpDir).then((body) => {
      req.body = body;
      done();
    }, done);
  });
  app.addHook('onResponse', (req, _reply, done) => {
    const files = req.uploadedFiles ?? [];
    if (!files.length) return done();
    Promise.all(files.map((f) => rm(f.path, { force: true }))).then(() => done(), done);
  });
}

async function collect(req: FastifyRequest, tmpDir: string): Promise<Record<string, unknown>> {
  const body = Object.create(null) as Record<string, unknown>;
  req.uploadedFiles = [];
  await mkdir(tmpDir, { recursive: true });
  try {
    const cap = req.uploadByteCap;
    for await (const part of req.parts(cap ? { limits: { fileSize: cap.bytes } } : undefined)) {
      checkPartNames(part);
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw new ApiError(413, 'The request is larger than this service accepts.', [`'${part.fieldname}' is longer than ${LIMITS.fieldBytes} bytes`]);
        body[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const file: UploadedFile = {
        kind: 'file',
        path: path.join(tmpDir, randomUUID()),
        filename: path.basename(part.filename || part.fieldname),
        mimetype: part.mimetype,
        size: 0,
      };
      req.uploadedFiles.push(file);
      await pipeline(part.file, createWriteStream(file.path));
      if (part.file.truncated)
        throw new ApiError(413, cap?.message ?? 'The uploaded file is larger than this service accepts.', [`'${part.fieldname}' is too large`]);
      file.size = part.file.bytesRead;
      body[part.fieldname] = file;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const e = err as { code?: string; message?: string; statusCode?: number };
    if (req.uploadByteCap && e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, req.uploadByteCap.message, [e.message ?? 'too large']);
    throw new ApiError(e.statusCode && e.statusCode < 500 ? e.statusCode : 400, 'The multipart body could not be read.', [e.message ?? String(err)]);
  }
  return body;
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
