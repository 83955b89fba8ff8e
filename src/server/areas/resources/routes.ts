/**
 * Item resources on the wire (ArcGIS REST "Add Resources", "Update Resources", "Remove Resources",
 * "Item Resources"): `content/users/<u>/items/<id>/addResources|updateResources|removeResources`,
 * `content/items/<id>/resources` (the list) and `content/items/<id>/resources/<path>` (the file).
 *
 * A resource that cannot be served answers with an HTTP error status and the error envelope as
 * JSON, never 200: rest-js's getItemResource reads a 200 body as the file (a Blob) whatever it
 * holds, so an envelope sent with 200 became the "file" of a deployed item (issue: a CSV item's
 * file silently turned into the portal's error JSON). With a 4xx status rest-js rejects.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import { listResourcesParams, removeResourcesParams, RESOURCE_OPERATIONS, resourceWriteParams } from '../../../shared/contract/resources.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { ApiError } from '../../http/errors.ts';
import { operation, REST } from '../../http/operation.ts';
import { uploadedFileParam } from '../../http/params.ts';
import { sendStoredFile } from '../../http/sendFile.ts';
import { listResources, readableResource, removeResources, writeResources } from './service.ts';
import { resourceContentType } from './contentType.ts';

const ITEM = `${REST}/content/users/:username/items/:itemId`;
const uploadedFile = uploadedFileParam();
const writeParams = resourceWriteParams.extend({ file: uploadedFile.optional() });
/** The `file` part: one resource, or a zip of them with archive=true (its files are held to the same per-file limit). */
const RESOURCE_FILE = { parts: { file: LIMITS.resourceBytes } };

/** The envelope with an HTTP status a client cannot read as content: 404 for what is not there, else the error's own code. */
function sendFileError(reply: FastifyReply, err: ApiError): FastifyReply {
  const notThere = err.code === 404 || err.messageCode === MESSAGE_CODES.itemNotFound;
  const status = notThere ? 404 : err.code >= 400 && err.code < 600 ? err.code : 400;
  reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: { ...err.toBody(), code: notThere ? 404 : err.code } }));
  return reply;
}

export function resourceRoutes(app: FastifyInstance): void {
  for (const mode of ['add', 'update'] as const) {
    operation(app, {
      method: 'write',
      path: `${ITEM}/${mode}Resources`,
      authority: RESOURCE_OPERATIONS[`${mode}Resources`],
      params: writeParams,
      // A text resource (JSON configuration, say) is bounded by the request body only.
      longParams: { text: LIMITS.formBodyBytes },
      files: RESOURCE_FILE,
      handler: ({ caller, path, params, portal, reach }) => writeResources(portal, caller, reach, path.username, path.itemId, params, mode),
    });
  }

  operation(app, {
    method: 'write',
    path: `${ITEM}/removeResources`,
    authority: RESOURCE_OPERATIONS.removeResources,
    params: removeResourcesParams,
    handler: ({ caller, path, params, portal, reach }) => removeResources(portal, caller, reach, path.username, path.itemId, params),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/resources`,
    authority: RESOURCE_OPERATIONS.itemResources,
    access: 'public',
    params: listResourcesParams,
    handler: ({ caller, path, params, portal, reach }) => listResources(portal, caller, reach, path.itemId, params),
  });

  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/resources/*`,
    head: true,
    authority: RESOURCE_OPERATIONS.itemResource,
    access: 'public',
    params: z.object({}),
    handler: async ({ caller, path, portal, req, reply, reach }) => {
      // The router has decoded the path once already (as for info files).
      const rel = path['*'] ?? '';
      let found;
      try {
        found = await readableResource(portal, caller, reach, path.itemId, rel);
      } catch (err) {
        if (err instanceof ApiError) return sendFileError(reply, err);
        throw err;
      }
      // Served files never run as pages of this origin.
      reply.header('X-Content-Type-Options', 'nosniff').header('Content-Security-Policy', "default-src 'none'; sandbox").type(resourceContentType(found.path));
      return sendStoredFile(req, reply, portal.blobs, found.blob_key, Number(found.size));
    },
  });
}
