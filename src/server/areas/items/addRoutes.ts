/**
 * Paths of adding items and multipart uploads, exactly as the API has them (facts §0, §3.1):
 * `content/users/<u>[/<folderId>]/addItem`, `content/users/<u>/items/<id>/addPart|commit|cancel|parts|status`.
 * Bodies sent with chunked transfer encoding (no Content-Length) are capped at 50 MB (spec §4.1
 * rule 8), since their size cannot be checked beforehand.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits.ts';
import { operation, REST } from '../../http/operation.ts';
import { multipartLimits, type FileParams } from '../../http/multipart.ts';
import { rawParams } from '../../http/params.ts';
import { addItem } from './add.ts';
import { THUMBNAIL_MAX_BYTES } from './thumbnails.ts';
import { streamPart } from './streamedParts.ts';
import { streamItemFile } from './uploadedFiles.ts';
import { addPart, addPartParams, cancelUpload, commitParams, commitUpload, itemStatus, listParts } from './uploads.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';

const USER = `${REST}/content/users/:username`;
const ITEM = `${USER}/items/:itemId`;
const anything = z.record(z.string(), z.unknown());
const none = z.object({});

const CHUNK_CAPPED = new Set([`${USER}/addItem`, `${USER}/:folderId/addItem`, `${ITEM}/addPart`]);
const MB = LIMITS.chunkedUploadBytes / (1024 * 1024);

/** addItem's file parts: the item's file and its thumbnail image, only into the caller's own content. */
const ITEM_FILES: FileParams = {
  parts: { file: multipartLimits.fileSize, thumbnail: THUMBNAIL_MAX_BYTES },
  // A file whose token comes first is written in its place as it arrives (on disk: uploadedFiles.ts).
  streamTo: streamItemFile,
};

export const baseUrlOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export function addItemRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    // The headers first: reading routeOptions builds an object, and almost no request is chunked.
    const chunked = req.headers['content-length'] === undefined && /chunked/i.test(String(req.headers['transfer-encoding'] ?? ''));
    if (chunked && CHUNK_CAPPED.has(req.routeOptions.url ?? '')) {
      req.uploadByteCap = {
        bytes: LIMITS.chunkedUploadBytes,
        message: `Uploads sent with chunked transfer encoding are limited to ${MB} MB; send a Content-Length or use a multipart upload (addItem multipart=true, addPart, commit).`,
      };
    }
    done();
  });

  for (const path of [`${USER}/addItem`, `${USER}/:folderId/addItem`]) {
    operation(app, {
      method: 'write',
      path,
      authority: ITEM_OPERATIONS.addItem,
      params: anything,
      // Item data sent as text (web map JSON and the like) is bounded by the request body only.
      longParams: { text: LIMITS.formBodyBytes },
      files: ITEM_FILES,
      handler: ({ caller, path: p, portal, req }) => addItem(portal, caller, p.folderId, rawParams(req), baseUrlOf(req)),
    });
  }

  operation(app, {
    method: 'write',
    path: `${ITEM}/addPart`,
    authority: ITEM_OPERATIONS.addPart,
    params: addPartParams,
    // A part whose token comes first is stored while it arrives (streamedParts.ts).
    files: { parts: { file: multipartLimits.fileSize }, streamTo: streamPart },
    handler: ({ caller, path, params, portal }) => addPart(portal, caller, path.itemId, params.partNum, params.file),
  });

  operation(app, {
    method: 'write',
    path: `${ITEM}/commit`,
    authority: ITEM_OPERATIONS.commitItem,
    params: commitParams,
    handler: ({ caller, path, params, portal }) => commitUpload(portal, caller, path.itemId, params),
  });

  operation(app, {
    method: 'write',
    path: `${ITEM}/cancel`,
    authority: ITEM_OPERATIONS.cancelItem,
    params: none,
    handler: ({ caller, path, portal }) => cancelUpload(portal, caller, path.itemId),
  });

  operation(app, {
    method: 'write',
    path: `${ITEM}/parts`,
    authority: ITEM_OPERATIONS.itemParts,
    params: none,
    handler: ({ caller, path, portal }) => listParts(portal, caller, path.itemId),
  });

  operation(app, {
    method: 'read',
    path: `${ITEM}/status`,
    authority: ITEM_OPERATIONS.itemStatus,
    // rest-js sends jobId and jobType; an item has one status, so they only pass through.
    params: z.object({ jobId: z.string().optional(), jobType: z.string().optional() }),
    handler: ({ caller, path, portal, reach }) => itemStatus(portal, caller, reach, path.username, path.itemId),
  });
}
