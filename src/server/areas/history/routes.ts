/** `portals/<orgId>/history` (ArcGIS REST API "Portal History"; docs/history.md). */
import type { FastifyInstance } from 'fastify';
import { HISTORY_EXTRAS, HISTORY_READ_OPERATIONS, historyParams } from '../../../shared/contract/history.ts';
import { operation, REST } from '../../http/operation.ts';
import { HISTORY_ORG, historyCsv, readHistory } from './service.ts';

export function historyRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/history`,
    authority: HISTORY_READ_OPERATIONS.history,
    target: HISTORY_ORG,
    params: historyParams,
    csv: true,
    extras: HISTORY_EXTRAS,
    handler: async ({ params, portal, reply, target: { orgId } }) => {
      if (params.f !== 'csv') return readHistory(portal, orgId, params);
      const body = await historyCsv(portal, orgId, params);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="history.csv"').send(body);
    },
  });
}
