/**
 * "Deprecated — use <title>" (issue 39): the replacement run names the replacement when it
 * deprecates the old item, and the item page and the Content list link to it; a user who cannot
 * read the replacement (or a portal that keeps none) sees the Deprecated badge alone.
 */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi, getItem, shareItem } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { runReplacement } from './replaceRun.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

async function signIn(username: string) {
  const { token } = await signInAs(svc, username);
  configureApi({ portalUrl: svc.restUrl, token });
}

describe('a deprecated item names its replacement', () => {
  it('the replacement run records it; the item page and the Content list link to it; others see the badge alone', async () => {
    await signIn('user1');
    const old = await addItem('user1', undefined, { title: 'Hydrants 2019', type: 'Web Map', text: '{}' });
    const next = await addItem('user1', undefined, { title: 'Hydrants 2024', type: 'Web Map', text: '{}' });
    await shareItem('user1', old.id, { org: true });
    const target = (id: string, title: string) => ({ id, title, type: 'Web Map', url: null });
    const run = await runReplacement(target(old.id, 'Hydrants 2019'), target(next.id, 'Hydrants 2024'), [], { deprecate: true });
    expect(run.deprecated).toEqual({ ok: true });
    expect(await getItem(old.id)).toMatchObject({ contentStatus: 'deprecated', replacedBy: next.id });

    const page = renderApp(`/content/items/${old.id}`);
    expect(await screen.findByRole('heading', { name: 'Hydrants 2019', level: 1 })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Deprecated — use Hydrants 2024' });
    expect(link).toHaveAttribute('href', `/content/items/${next.id}`);
    expect(screen.getByTestId('replaced-by')).toHaveTextContent('— use Hydrants 2024');
    page.unmount();

    const list = renderApp('/content');
    const row = (await screen.findByRole('link', { name: 'Hydrants 2019' })).closest('tr')!;
    expect(await within(row).findByRole('link', { name: 'Deprecated — use Hydrants 2024' })).toHaveAttribute('href', `/content/items/${next.id}`);
    list.unmount();

    // publisher1 reads the old item (shared with the organization) but not the private replacement.
    await signIn('publisher1');
    renderApp(`/content/items/${old.id}`);
    expect(await screen.findByRole('heading', { name: 'Hydrants 2019', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('content-status-badge')).toHaveTextContent('Deprecated');
    // The replacement's read has been refused by the time the page settles: still no link.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByTestId('replaced-by')).not.toBeInTheDocument();
  });
});
