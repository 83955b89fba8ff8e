/**
 * A replacement run in history (issue 39): the dependent's reference swap and the old item's
 * deprecation show as one entry on the Activity page, open to both rows, and ticking the entry
 * undoes both. Grouping itself (lib/history/group.ts) is checked on recorded shapes too.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../shared/contract/history.ts';
import { addItem, fetchItemData, getItem } from '../../api/index.ts';
import type { ReplaceStep } from './replace.ts';
import { runReplacement } from './replaceRun.ts';
import { groupReplacements } from '../../lib/history/group.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

const OLD = '0123456789abcdef0123456789abcdef';
const NEW = 'fedcba9876543210fedcba9876543210';
const event = (p: Partial<HistoryEvent> & Pick<HistoryEvent, 'id' | 'created'>): HistoryEvent =>
  ({ idType: 'i', action: 'update', actor: 'admin', orgId: 'o', data: {}, eventId: `${p.id}:${p.created}`, ...p }) as HistoryEvent;
const swap = (id: string, created: number, actor = 'admin') =>
  event({ id, created, actor, operation: 'updateItem', data: { replacedReferences: [{ from: OLD, to: NEW }] } });
const deprecation = (created: number, replacedBy?: string) =>
  event({
    id: OLD,
    created,
    operation: 'setContentStatus',
    data: { before: { contentStatus: '' }, after: { contentStatus: 'deprecated', ...(replacedBy ? { replacedBy } : {}) } },
  });

describe('grouping a replacement run', () => {
  it('folds the swaps old → new made by the same member just before the deprecation naming new; nothing else', () => {
    const rows = [deprecation(5000, NEW), swap('m2', 4000), swap('m1', 3000), swap('m3', 2500, 'user1'), deprecation(1000, NEW), swap('m0', 500)];
    const entries = groupReplacements(rows);
    expect(entries.map((e) => (e.kind === 'replacement' ? e.events.map((x) => x.id) : e.event.id))).toEqual([
      [OLD, 'm2', 'm1'],
      'm3', // another member's swap is not part of the run
      [OLD, 'm0'],
    ]);
    // A portal that records no replacement: the rows stay one by one.
    expect(groupReplacements([deprecation(5000), swap('m1', 4000)]).map((e) => e.kind)).toEqual(['event', 'event']);
    // A swap made long before is another run.
    expect(groupReplacements([deprecation(5_000_000, NEW), swap('m1', 1000)]).map((e) => e.kind)).toEqual(['event', 'event']);
  });
});

describe('a replacement run on the Activity page', () => {
  it('shows one entry that opens to both rows, and undoing it undoes both', async () => {
    await signInAs(svc, 'admin');
    const old = await addItem('admin', undefined, { title: 'Hydrants 2019', type: 'Web Map', text: '{}' });
    const next = await addItem('admin', undefined, { title: 'Hydrants 2024', type: 'Web Map', text: '{}' });
    const map = await addItem('admin', undefined, { title: 'Fire map', type: 'Web Map', text: JSON.stringify({ operationalLayers: [{ itemId: old.id }] }) });
    const target = (id: string, title: string) => ({ id, title, type: 'Web Map', url: null });
    const referrer = {
      id: map.id,
      title: 'Fire map',
      type: 'Web Map',
      owner: 'admin',
      access: 'private',
      contentStatus: null,
      url: null,
      modified: 0,
      depth: 1,
    };
    const steps = [{ referrer: { item: referrer, edges: [] }, action: 'update' }] as unknown as ReplaceStep[];
    const run = await runReplacement(target(old.id, 'Hydrants 2019'), target(next.id, 'Hydrants 2024'), steps, { deprecate: true });
    expect(run.outcomes.map((o) => o.status)).toEqual(['updated']);

    const { user } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    const sentence = "admin replaced 'Hydrants 2019' with 'Hydrants 2024': 1 item now uses it, 'Hydrants 2019' marked deprecated";
    const entry = await within(table).findByTestId('replacement-entry');
    await waitFor(() => expect(entry).toHaveTextContent(sentence));
    // The two rows are inside the entry, not rows of their own.
    await user.click(within(entry).getByText('Show its 2 changes'));
    expect(within(entry).getByText("admin marked 'Hydrants 2019' as deprecated")).toBeVisible();
    expect(within(entry).getByText("admin replaced references to 'Hydrants 2019' with 'Hydrants 2024' in 'Fire map'")).toBeVisible();
    expect(within(table).getAllByText("admin marked 'Hydrants 2019' as deprecated")).toHaveLength(1);

    await user.click(within(table).getByRole('checkbox', { name: `Select to undo the whole replacement: ${sentence}` }));
    await user.click(screen.getByRole('button', { name: 'Undo selected (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo 2 changes' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Undo 2 changes' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Undo 2 changes' }));
    await within(dialog).findByRole('table', { name: 'Undo results' });
    await waitFor(() => expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 undone'));
    expect((await getItem(old.id)).contentStatus ?? null).toBeNull();
    expect(JSON.parse(await (await fetchItemData(map.id)).blob.text())).toEqual({ operationalLayers: [{ itemId: old.id }] });
  }, 60_000);
});
