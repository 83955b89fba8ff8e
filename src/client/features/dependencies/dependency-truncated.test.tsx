/**
 * A dependency answer cut short by its bounds (issue 35): the item page's Used by section says so
 * in visible text, in an alert, naming the bounds. Three maps naming a layer 1,500 times each are
 * more references than one step of the portal's walk reads (4,000), while any 4,000 of them still
 * come from all three maps; each map is one link.
 */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEPENDENCY_LIMITS } from '../../../shared/contract/dependencies.ts';
import { addItem, configureApi } from '../../api/index.ts';
import { formatCount } from '../../lib/format.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let layer: { id: string };
const tag = Date.now().toString(36);

beforeAll(async () => {
  svc = await startClientService();
  const { token } = await signInAs(svc, 'user1');
  configureApi({ portalUrl: svc.restUrl, token });
  layer = await addItem('user1', undefined, {
    title: `Named often ${tag}`,
    type: 'Feature Service',
    url: 'http://127.0.0.1:9/arcgis/rest/services/Often/FeatureServer',
  });
  // 3 × perMap is over the step's bound, 2 × perMap under it: every map is among the rows read.
  const perMap = Math.floor((DEPENDENCY_LIMITS.maxRowsPerStep * 3) / 8);
  const text = JSON.stringify({ operationalLayers: Array.from({ length: perMap }, (_, k) => ({ id: `l${k}`, itemId: layer.id })) });
  // Sent form-encoded from the test itself: jsdom's multipart encoder cannot take a body this size.
  for (let k = 0; k < 3; k++) {
    const fields = { title: `Often map ${k} ${tag}`, type: 'Web Map', text, f: 'json', token };
    const res = await fetch(`${svc.restUrl}/content/users/user1/addItem`, { method: 'POST', body: new URLSearchParams(fields) });
    expect(((await res.json()) as { success?: boolean }).success).toBe(true);
  }
}, 90_000);
afterAll(() => svc?.close());

it('says so in the Used by section: visible text in an alert, naming the bounds', async () => {
  await signInAs(svc, 'user1');
  const { user, unmount } = renderApp(`/content/items/${layer.id}`);
  expect(await screen.findByRole('heading', { name: `Named often ${tag}`, level: 1 }, { timeout: 30_000 })).toBeInTheDocument();
  await user.click(screen.getByRole('tab', { name: 'Dependencies' }));
  const usedBy = (await screen.findByRole('heading', { name: 'Used by', level: 2 })).closest('.mantine-Paper-root') as HTMLElement;
  const alert = await within(usedBy).findByRole('alert', {}, { timeout: 15_000 });
  expect(alert).toHaveTextContent('There may be more');
  expect(alert).toHaveTextContent('2,000 links between them');
  // The bound as the portal reads it (LIMITS.dependencyReferenceRowsPerStep), in the console's digits.
  expect(alert).toHaveTextContent(`${formatCount(DEPENDENCY_LIMITS.maxRowsPerStep)} references a level`);
  // Each map once: its references are one link.
  expect(within(usedBy).getAllByRole('link', { name: new RegExp(`^Often map \\d ${tag}$`) })).toHaveLength(3);
  unmount();
}, 90_000);
