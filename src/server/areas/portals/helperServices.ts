/**
 * What `portals/self` names as the organization's default extent and helper services (ArcGIS REST
 * "Portal Self": `defaultExtent`, `helperServices`). Clients (the Maps SDK, solution.js) read
 * `helperServices.geometry.url` for projecting and measuring; this portal has no geometry engine, so
 * the URL names a GeometryServer on this portal itself (the request's own origin, or PUBLIC_URL),
 * whose description answers and whose every operation fails at once with the error envelope (400) —
 * never a service off the machine, never a request left waiting.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PORTAL_OPERATIONS } from '../../../shared/contract/portals.ts';
import { ApiError } from '../../http/errors.ts';
import { operation } from '../../http/operation.ts';

/** The geometry helper's path on this portal (the ArcGIS Server layout: …/rest/services/<folder>/<name>/GeometryServer). */
export const GEOMETRY_SERVER_PATH = '/geometry/rest/services/Utilities/Geometry/GeometryServer';

/** The world in Web Mercator, as ArcGIS Online's organizations start with. */
export const DEFAULT_EXTENT = {
  type: 'extent',
  xmin: -20037508.342789244,
  ymin: -10018754.171394622,
  xmax: 20037508.342789244,
  ymax: 18418386.309446193,
  spatialReference: { wkid: 102100, latestWkid: 3857 },
} as const;

/** `helperServices` of portals/self for a portal reached at `origin`. */
export function helperServicesOf(origin: string) {
  return { geometry: { url: `${origin}${GEOMETRY_SERVER_PATH}` } };
}

/** As a GeometryServer answers an operation it cannot perform: 400 "Unable to complete operation." (no 5xx: nothing failed here). */
const notAvailable = (operationName: string) =>
  new ApiError(400, 'Unable to complete operation.', [
    `'${operationName}' is not performed here: this portal names its own geometry helper so that no request leaves the machine.`,
  ]);

export function geometryHelperRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: GEOMETRY_SERVER_PATH,
    authority: PORTAL_OPERATIONS.geometryServer,
    access: 'public',
    params: z.object({}),
    handler: async () => ({
      // The ArcGIS Server release whose GeometryServer description this follows.
      currentVersion: 11.3,
      serviceDescription: 'Geometry helper of the local portal: its operations are not available here and fail at once.',
    }),
  });
  operation(app, {
    method: 'read',
    path: `${GEOMETRY_SERVER_PATH}/*`,
    authority: PORTAL_OPERATIONS.geometryServer,
    access: 'public',
    params: z.record(z.string(), z.unknown()),
    handler: async ({ path }) => {
      throw notAvailable(path['*'] ?? '');
    },
  });
}
