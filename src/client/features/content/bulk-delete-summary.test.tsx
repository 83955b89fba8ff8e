/**
 * The bulk delete's summary against the local portal (which has a recycle bin), and against the same
 * organization as a portal without one answers it (ArcGIS Enterprise: no recycleBinEnabled): the
 * owners counted, the count to type, and where the items go.
 */
import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPortal, type Item } from '../../api/index.ts';
import { portalKeys } from '../../api/queries/portal.ts';
import { renderWithProviders, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { BulkDeleteSummary, needsTypedCount } from './BulkDeleteSummary.tsx';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
}, 60_000);
afterAll(() => svc?.close());

const item = (id: string, owner: string) => ({ id, owner, title: `Item ${id}` }) as Item;

function Summary({ items }: { items: Item[] }) {
  const [typed, setTyped] = useState('');
  return <BulkDeleteSummary items={items} typed={typed} onTyped={setTyped} />;
}

describe('bulk delete summary', () => {
  it('counts per owner, asks for the count of a multi-owner or large delete, and says where the items go', async () => {
    expect(needsTypedCount([item('a', 'u1'), item('b', 'u1')])).toBe(false);
    expect(needsTypedCount([item('a', 'u1'), item('b', 'u2')])).toBe(true);
    expect(needsTypedCount(Array.from({ length: 10 }, (_, i) => item(String(i), 'u1')))).toBe(true);

    const { queryClient } = renderWithProviders(<Summary items={[item('a', 'user1'), item('b', 'user1'), item('c', 'admin')]} />);
    expect(await screen.findByText('They go to the recycle bin')).toBeTruthy();
    const owners = screen.getByRole('table', { name: 'Items deleted per owner' });
    expect(owners.textContent).toContain('user12');
    expect(owners.textContent).toContain('admin1');
    expect(screen.getByRole('textbox', { name: 'Type 3 to confirm deleting 3 items of 2 owners' })).toBeTruthy();

    // The same organization as a portal without a recycle bin describes it.
    const { recycleBinEnabled: _on, recycleBinSupported: _supported, ...enterprise } = await getPortal();
    await act(async () => {
      queryClient.setQueryData(portalKeys.self, enterprise);
    });
    expect(await screen.findByText('This is final')).toBeTruthy();
    expect(screen.queryByText('They go to the recycle bin')).toBeNull();
  });
});
