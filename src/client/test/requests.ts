/**
 * Watches the requests the console sends to the real service (they still go through): which
 * operation, with which parameters. For checking what went over the wire — batching, which fields.
 */
import { vi } from 'vitest';

export interface SentRequest {
  /** The path below …/sharing/rest or …/portaladmin, e.g. community/groups/abc/addUsers. */
  path: string;
  method: string;
  params: URLSearchParams;
}

export function recordRequests() {
  const sent: SentRequest[] = [];
  const original = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    const params = method === 'POST' && typeof init?.body === 'string' ? new URLSearchParams(init.body) : url.searchParams;
    sent.push({ path: url.pathname.replace(/^.*?\/(sharing\/rest|portaladmin)\//, ''), method, params });
    return original(input, init);
  });
  return { sent, stop: () => spy.mockRestore() };
}
