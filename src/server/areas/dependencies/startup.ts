/**
 * Start-up indexing: before the service answers its first request, the items no change has indexed
 * (a database from before migration 020, items written by a path that does not index, an older
 * extractor version) are read into the reference index. A fresh or up-to-date database costs one
 * indexed query; several instances starting together share the work (indexer.ts).
 */
import type { FastifyInstance } from 'fastify';
import { indexPendingItems } from './indexer.ts';

export function installStartupIndexing(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    const t0 = performance.now();
    const n = await indexPendingItems(app.portal);
    if (n) app.portal.log.info({ items: n, ms: Math.round(performance.now() - t0) }, 'reference index: items read at start-up');
  });
}
