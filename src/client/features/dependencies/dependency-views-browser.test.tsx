/**
 * The same views on a portal without the dependency operations (LOCAL_EXTRAS=off, as ArcGIS Online
 * or Enterprise): the console builds the graph in this browser (IndexedDB from fake-indexeddb) and
 * says so, with how many items it read, how fresh it is, and a Refresh that reads again.
 */
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi } from '../../api/index.ts';
import { subscribeAnnouncements } from '../../lib/announce.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let layer: { id: string };
const tag = Date.now().toString(36);
const LAYER_URL = 'http://127.0.0.1:9/arcgis/rest/services/Trails/FeatureServer';

async function addAs(username: string, input: Parameters<typeof addItem>[2]) {
  const { token } = await signInAs(svc, username);
  configureApi({ portalUrl: svc.restUrl, token });
  return addItem(username, undefined, input);
}

beforeAll(async () => {
  svc = await startClientService({ localExtras: false });
  layer = await addAs('user1', { title: `Trails layer ${tag}`, type: 'Feature Service', url: LAYER_URL });
  const map = await addAs('user1', {
    title: `Trails map ${tag}`,
    type: 'Web Map',
    text: JSON.stringify({ operationalLayers: [{ id: 't', layerType: 'ArcGISFeatureLayer', itemId: layer.id, url: `${LAYER_URL}/0` }] }),
  });
  await addAs('user1', { title: `Trails app ${tag}`, type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: map.id } }) });
}, 90_000);
afterAll(() => svc?.close());

describe('dependency views with the graph built in the browser', () => {
  it("the layer's page says the graph was built here, shows the map and, with the switch, the app; Refresh reads again and is announced", async () => {
    await signInAs(svc, 'user1');
    const { user, unmount } = renderApp(`/content/items/${layer.id}`);
    expect(await screen.findByRole('heading', { name: `Trails layer ${tag}`, level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Dependencies' }));
    const usedBy = screen.getByRole('heading', { name: 'Used by', level: 2 }).closest('.mantine-Paper-root') as HTMLElement;
    expect(await within(usedBy).findByRole('link', { name: `Trails map ${tag}` }, { timeout: 20_000 })).toBeInTheDocument();
    const status = screen.getByTestId('graph-status');
    await waitFor(() => expect(status).toHaveTextContent(/^Built in this browser from \d+ items? you can see, updated just now\./));

    await user.click(within(usedBy).getByRole('switch', { name: 'Show everything that depends on it' }));
    const app = await within(usedBy).findByRole('link', { name: `Trails app ${tag}` });
    const mapEntry = within(usedBy)
      .getByRole('link', { name: `Trails map ${tag}` })
      .closest('li') as HTMLElement;
    expect(within(mapEntry).getByRole('list')).toContainElement(app);

    // Refresh reads the items again: the start and the end are announced.
    const said: string[] = [];
    const stop = subscribeAnnouncements((a) => said.push(a.message));
    await user.click(within(status).getByRole('button', { name: 'Refresh' }));
    await waitFor(
      () => expect(said).toEqual(['Building the dependency graph in this browser…', expect.stringMatching(/^Dependency graph up to date: \d+ items? read\.$/)]),
      {
        timeout: 20_000,
      },
    );
    stop();
    expect(within(usedBy).getByRole('link', { name: `Trails app ${tag}` })).toBeInTheDocument();
    unmount();
  }, 60_000);

  it('the organization view lists the unused app from the browser graph and says where it came from', async () => {
    await signInAs(svc, 'user1');
    const { unmount } = renderApp('/dependencies?owner=user1&type=Web+Mapping+Application&num=100');
    expect(await screen.findByRole('heading', { name: 'Dependencies', level: 1 })).toBeInTheDocument();
    const unused = await screen.findByRole('table', { name: 'Not used by anything' });
    expect(await within(unused).findByRole('link', { name: `Trails app ${tag}` }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByTestId('graph-status')).toHaveTextContent(/^Built in this browser from/);
    unmount();
  }, 60_000);
});
