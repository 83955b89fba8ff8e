import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './store/db.ts';

export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** What every operation can reach: the database, configuration, clock and log. */
export interface PortalContext {
  db: Db;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    portal: PortalContext;
  }
}
