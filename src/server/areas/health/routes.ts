/**
 * The health check, as Portal for ArcGIS has it (Portal Administrator API `healthCheck`): for a load
 * balancer or monitoring. An instance that can serve answers HTTP 200 `{"status": "success"}`; one
 * whose database does not answer answers HTTP 503 with the error envelope saying so (ArcGIS answers
 * "other than HTTP 200" when unavailable), so a balancer takes it out until the database is back.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SESSION_OPERATIONS } from '../../../shared/contract/session.ts';
import { databaseUnavailable } from '../../http/errors.ts';
import { operation, PORTAL_ADMIN } from '../../http/operation.ts';
import { pingDatabase } from './service.ts';

/** How long the check waits for the database: a balancer polls every few seconds. */
const CHECK_TIMEOUT_MS = 3_000;

export function healthRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${PORTAL_ADMIN}/healthCheck`,
    authority: SESSION_OPERATIONS.healthCheck,
    params: z.object({}),
    access: 'public',
    handler: async ({ portal, reply }) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([pingDatabase(portal.db), timeout]);
      } catch {
        const body = { error: databaseUnavailable().toBody() };
        return reply.code(503).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));
      } finally {
        clearTimeout(timer);
      }
      reply.header('Cache-Control', 'no-store');
      return { status: 'success' };
    },
  });
}
