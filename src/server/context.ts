import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { BlobStore } from './store/blobs.ts';
import type { Db } from './store/db.ts';

export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** What every operation can reach: the database, blob store, configuration, clock and log. */
export interface PortalContext {
  db: Db;
  blobs: BlobStore;
  /** Folder for request bodies being received (same file system as the blob store). */
  tmpDir: string;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    portal: PortalContext;
  }
}
