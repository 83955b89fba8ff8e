/**
 * A stored file as an HTTP answer, with byte ranges (RFC 9110 §14): `Range: bytes=a-b`, `a-` or
 * `-n` answers 206 with Content-Range; a range past the end answers 416. Clients that download
 * large items in pieces or resume (the `dataUrl` downloader of another portal, browsers, GDAL's
 * /vsicurl/) read only what they ask for — from an object store, one ranged GET.
 * Several ranges in one header are answered with the whole file (allowed by §14.2).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore, ByteRange } from '../store/blobs.ts';

/** The one range `header` asks of a `size`-byte file; 'whole' when there is none (or several); 'unsatisfiable' past the end. */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m || (m[1] === '' && m[2] === '')) return 'whole';
  if (m[1] === '') {
    // The last n bytes.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return 'whole'; // not a valid range: ignored (§14.1.1)
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Sends `key` (of `size` bytes) with the type and headers already set on `reply`, honouring a Range header. */
export async function sendStoredFile(req: FastifyRequest, reply: FastifyReply, blobs: BlobStore, key: string, size: number): Promise<FastifyReply> {
  reply.header('Accept-Ranges', 'bytes');
  const range = requestedRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.code(416).header('Content-Range', `bytes */${size}`).type('text/plain; charset=utf-8').send('Range Not Satisfiable');
    return reply;
  }
  if (range === 'whole') {
    reply.header('Content-Length', String(size)).send(await blobs.open(key));
    return reply;
  }
  reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', String(range.end - range.start + 1))
    .send(await blobs.open(key, range));
  return reply;
}
