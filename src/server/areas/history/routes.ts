/** `portals/<orgId>/history` (ArcGIS REST API "Portal History"; docs/history.md). */
import type { FastifyInstance } from 'fastify';
import { HISTORY_EXTRAS, historyParams } from '../../../shared/contract/history.ts';
import { operation, REST } from '../../http/operation.ts';
import { HISTORY_AUTHORITY, historyCsv, readHistory } from './service.ts';

export function historyRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/history`,
    authority: HISTORY_AUTHORITY,
    params: historyParams,
    csv: true,
    extras: HISTORY_EXTRAS,
    handler: async ({ caller, path, params, portal, reply }) => {
      const orgId = path.orgId === 'self' ? caller.orgId : path.orgId;
      if (params.f !== 'csv') return readHistory(portal, caller, orgId, params);
      const body = await historyCsv(portal, caller, orgId, params);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="history.csv"').send(body);
    },
  });
}
