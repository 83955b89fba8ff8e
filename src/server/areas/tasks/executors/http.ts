/** Outbound calls of executors: always through the SSRF guard, bodies read with a size cap. */
import type { OutboundPolicy, OutboundResponse } from '../../../http/outbound.ts';
import { outboundRequest, OutboundRefused } from '../../../http/outbound.ts';
import { RunFailed } from './types.ts';

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(res: OutboundResponse, max = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.body.destroy();
      throw new RunFailed(`The answer was larger than ${max} bytes.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function send(
  url: string,
  policy: OutboundPolicy,
  init: { method: 'GET' | 'POST'; body?: string; contentType?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<{ status: number; text: string }> {
  try {
    const res = await outboundRequest(url, policy, {
      method: init.method,
      body: init.body,
      headers:
        init.body !== undefined
          ? { 'content-type': init.contentType ?? 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(init.body) }
          : {},
      timeoutMs: init.timeoutMs ?? 30_000,
      signal: init.signal,
    });
    return { status: res.status, text: await readBody(res) };
  } catch (err) {
    if (err instanceof RunFailed) throw err;
    if (err instanceof OutboundRefused) throw new RunFailed(`The URL was refused: ${err.message}`);
    throw new RunFailed(`The request to ${safeUrl(url)} failed: ${(err as Error).message}`);
  }
}

/** A URL without its query (which may carry a token) for messages. */
export const safeUrl = (url: string) => url.split('?')[0];

export function parseJson(text: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* below */
  }
  throw new RunFailed(`${what} did not answer with a JSON object: ${text.slice(0, 200)}`);
}
