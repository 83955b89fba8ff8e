/** What startService() answers, in process (service.ts) or scaled out (scaleOut.ts). */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/server/config.ts';
import type { Clock } from '../../src/server/context.ts';
import type { Db } from '../../src/server/store/db.ts';

export interface TestService {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Base URL of the REST interface once `listen()` was called, e.g. http://127.0.0.1:41234/sharing/rest (https:// with `tls`). */
  restUrl: string;
  /** With `tls: 'self-signed'`: the certificate authority that issued the service's certificate (PEM, and its file) — a client's `ca`. */
  tls?: { ca: string; caFile: string };
  orgId: string;
  partnerOrgId: string;
  /** Listen on an ephemeral loopback port (for clients that speak real HTTP). */
  listen(): Promise<string>;
  /** A token for a demo account (password: the demo password). */
  tokenFor(username: string): Promise<string>;
  /** POST a REST operation in-process (form-encoded, f=json); the parsed answer. Throws unless HTTP 200. */
  post(path: string, params?: Record<string, string>, token?: string): Promise<any>;
  /** POST a REST operation in-process as multipart/form-data (a field is a string or [file, name]); the parsed answer. */
  postForm(path: string, fields: Record<string, string | [Blob, string]>, token?: string): Promise<any>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  clock?: Clock;
  demoData?: boolean;
  config?: Partial<Config>;
  /** 'self-signed': listen with HTTPS on a certificate for localhost, 127.0.0.1 and ::1 generated for this service (http/tls.ts). */
  tls?: 'self-signed';
}

/** A REST operation's multipart form as a client sends it: f=json, the token, then the fields in order. */
export function operationForm(fields: Record<string, string | [Blob, string]>, token?: string): FormData {
  const form = new FormData();
  form.set('f', 'json');
  if (token) form.set('token', token);
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) form.set(name, value[0], value[1]);
    else form.set(name, value);
  }
  return form;
}
