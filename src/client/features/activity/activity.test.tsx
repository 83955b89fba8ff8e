/** The Activity page against the real local portal: an item shared by the administrator, in words, with its before/after. */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchHistoryCsv } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let token: string;

async function call(path: string, params: Record<string, string> = {}) {
  const res = await fetch(`${svc.restUrl}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ f: 'json', token, ...params }).toString(),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

beforeAll(async () => {
  svc = await startClientService();
  ({ token } = await signInAs(svc, 'admin'));
  const added = (await call('content/users/admin/addItem', { title: 'Activity parcels', type: 'Web Map', text: '{}' })) as { id: string };
  await call(`content/users/admin/items/${added.id}/share`, { org: 'true' });
});
afterAll(() => svc?.close());

describe('Activity page', () => {
  it('lists the sharing in words with its before/after', async () => {
    await signInAs(svc, 'admin');
    renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    const cell = await within(table).findByText("admin shared 'Activity parcels' with the organization");
    expect(cell).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('exports the CSV with the token in a header, not in the URL', async () => {
    const { token: session } = await signInAs(svc, 'admin');
    const calls: { url: string; headers: HeadersInit | undefined }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), headers: init?.headers });
      return realFetch(input, init);
    };
    try {
      const file = await fetchHistoryCsv(svc.orgId, { all: true });
      expect(await file.blob.text()).toContain('Activity parcels');
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toMatch(/\/history\?.*f=csv/);
    expect(calls[0].url).not.toContain('token=');
    expect(calls[0].headers).toMatchObject({ 'X-Esri-Authorization': `Bearer ${session}` });
  });
});
