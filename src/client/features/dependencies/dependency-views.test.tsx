/**
 * The dependency views against the real local portal (issue 26): a Feature Service layer used by a
 * Web Map used by a Web Mapping Application (values.webmap). The layer's page names the map under
 * "Used by" and, with "Show everything that depends on it", the app beneath the map; an item the
 * viewer cannot see is counted, not named; the app's page shows what it uses; the organization
 * view lists an unused item, leaves out a used one, and filters by type.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi, setContentStatus, shareItem } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let layer: { id: string };
let map: { id: string };
let app: { id: string };
let lonely: { id: string };
const tag = Date.now().toString(36);
const LAYER_URL = 'http://127.0.0.1:9/arcgis/rest/services/Parks/FeatureServer';

async function addAs(username: string, input: Parameters<typeof addItem>[2]) {
  const { token } = await signInAs(svc, username);
  configureApi({ portalUrl: svc.restUrl, token });
  return addItem(username, undefined, input);
}

beforeAll(async () => {
  svc = await startClientService();
  layer = await addAs('user1', { title: `Parks layer ${tag}`, type: 'Feature Service', url: LAYER_URL });
  map = await addAs('user1', {
    title: `Parks map ${tag}`,
    type: 'Web Map',
    text: JSON.stringify({
      operationalLayers: [{ id: 'parks', title: 'Parks', layerType: 'ArcGISFeatureLayer', itemId: layer.id, url: `${LAYER_URL}/0` }],
      baseMap: {
        title: 'Basemap',
        baseMapLayers: [{ id: 'base', layerType: 'ArcGISTiledMapServiceLayer', url: 'http://127.0.0.1:9/arcgis/rest/services/Base/MapServer' }],
      },
      version: '2.31',
    }),
  });
  app = await addAs('user1', { title: `Parks app ${tag}`, type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: map.id } }) });
  lonely = await addAs('user1', { title: `Lonely table ${tag}`, type: 'CSV', text: 'a,b\n1,2\n' });
  // publisher1's own map of the layer, shared with nobody: user1 may count it, never see its name.
  await shareItem('user1', layer.id, { org: true });
  await addAs('publisher1', {
    title: `Private parks map ${tag}`,
    type: 'Web Map',
    text: JSON.stringify({ operationalLayers: [{ id: 'p', layerType: 'ArcGISFeatureLayer', itemId: layer.id }] }),
  });
}, 90_000);
afterAll(() => svc?.close());

async function openDependencies(itemId: string, title: string) {
  await signInAs(svc, 'user1');
  const view = renderApp(`/content/items/${itemId}`);
  expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
  await view.user.click(screen.getByRole('tab', { name: 'Dependencies' }));
  return view;
}

const section = (name: string) => screen.getByRole('heading', { name, level: 2 }).closest('.mantine-Paper-root') as HTMLElement;

describe('item page: Dependencies tab', () => {
  it("the layer's page names the map under Used by, counts the hidden map, and with the switch shows the app beneath the map", async () => {
    const { user, unmount } = await openDependencies(layer.id, `Parks layer ${tag}`);
    expect(await screen.findByTestId('graph-status')).toHaveTextContent("From the portal's index.");
    const usedBy = section('Used by');
    const mapLink = await within(usedBy).findByRole('link', { name: `Parks map ${tag}` });
    expect(mapLink).toHaveAttribute('href', `/content/items/${map.id}`);
    const mapRow = mapLink.closest('li') as HTMLElement;
    expect(mapRow).toHaveTextContent('Web Map · owned by user1 · uses it as a layer');
    expect(within(mapRow).getByText('Owner only')).toBeInTheDocument();
    // Direct only: the app uses the map, not the layer.
    expect(within(usedBy).queryByRole('link', { name: `Parks app ${tag}` })).toBeNull();
    expect(within(usedBy).getByText('1 item you cannot see also uses it.')).toBeInTheDocument();
    expect(usedBy).not.toHaveTextContent('Private parks map');

    await user.click(within(usedBy).getByRole('switch', { name: 'Show everything that depends on it' }));
    const appLink = await within(usedBy).findByRole('link', { name: `Parks app ${tag}` });
    // Beneath the map: in the list inside the map's entry, one level down.
    const mapEntry = within(usedBy)
      .getByRole('link', { name: `Parks map ${tag}` })
      .closest('li') as HTMLElement;
    expect(within(mapEntry).getByRole('list')).toContainElement(appLink);
    expect(appLink.closest('li')).toHaveTextContent('Web Mapping Application · owned by user1 · uses it as a web map');

    // The layer itself uses nothing that is an item; its service address is its own, not listed.
    const uses = section('Uses');
    expect(await within(uses).findByText('This item uses no other item that you can see.')).toBeInTheDocument();
    unmount();
  }, 40_000);

  it("the app's page shows the map it uses and, with the switch, the layer under the map and the basemap's address as a link", async () => {
    const { user, unmount } = await openDependencies(app.id, `Parks app ${tag}`);
    const uses = section('Uses');
    const mapLink = await within(uses).findByRole('link', { name: `Parks map ${tag}` });
    expect(mapLink.closest('li')).toHaveTextContent('as a web map');
    expect(await within(section('Used by')).findByText('Nothing in this organization uses this item that you can see.')).toBeInTheDocument();

    await user.click(within(uses).getByRole('switch', { name: 'Show everything it needs' }));
    const layerLink = await within(uses).findByRole('link', { name: `Parks layer ${tag}` });
    const mapEntry = within(uses)
      .getByRole('link', { name: `Parks map ${tag}` })
      .closest('li') as HTMLElement;
    expect(within(mapEntry).getByRole('list')).toContainElement(layerLink);
    expect(layerLink.closest('li')).toHaveTextContent('as a layer');
    const base = within(uses).getByRole('link', { name: 'links to 127.0.0.1:9' });
    expect(base).toHaveAttribute('href', expect.stringMatching(/^https?:\/\/127\.0\.0\.1:9\/arcgis\/rest\/services\/base\/mapserver$/i));
    expect(base.closest('li')).toHaveTextContent(`as a basemap layer, used by Parks map ${tag}`);
    unmount();
  }, 40_000);
  it('a deprecated map in Used by names its replacement, linked', async () => {
    const next = await addAs('user1', { title: `Parks map v2 ${tag}`, type: 'Web Map', text: '{"operationalLayers":[]}' });
    const { token } = await signInAs(svc, 'admin');
    configureApi({ portalUrl: svc.restUrl, token });
    await setContentStatus(map.id, 'deprecated', { replacedBy: next.id });
    try {
      const { unmount } = await openDependencies(layer.id, `Parks layer ${tag}`);
      const usedBy = section('Used by');
      const mapRow = (await within(usedBy).findByRole('link', { name: `Parks map ${tag}` })).closest('li') as HTMLElement;
      expect(within(mapRow).getByText('Deprecated')).toBeInTheDocument();
      expect(await within(mapRow).findByRole('link', { name: `Deprecated — use Parks map v2 ${tag}` })).toHaveAttribute('href', `/content/items/${next.id}`);
      unmount();
    } finally {
      configureApi({ portalUrl: svc.restUrl, token });
      await setContentStatus(map.id, null);
    }
  }, 40_000);
});

describe('organization view', () => {
  it('lists an unused item, leaves out used ones, filters by type, and names the most used', async () => {
    await signInAs(svc, 'user1');
    const { user, location, unmount } = renderApp('/dependencies?owner=user1&num=100');
    expect(await screen.findByRole('heading', { name: 'Dependencies', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Not used by anything' })).toHaveAttribute('aria-selected', 'true');
    const unused = await screen.findByRole('table', { name: 'Not used by anything' });
    expect(await within(unused).findByRole('link', { name: `Lonely table ${tag}` })).toHaveAttribute('href', `/content/items/${lonely.id}`);
    // The app: nothing uses it either. The map and the layer are used.
    expect(within(unused).getByRole('link', { name: `Parks app ${tag}` })).toBeInTheDocument();
    expect(within(unused).queryByRole('link', { name: `Parks map ${tag}` })).toBeNull();
    expect(within(unused).queryByRole('link', { name: `Parks layer ${tag}` })).toBeNull();

    const type = screen.getByRole('combobox', { name: 'Type' });
    await user.click(type);
    await user.paste('CSV');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/dependencies?owner=user1&type=CSV&num=100'));
    // While the filtered page loads the table shows a loading row: wait for the answer, not only the app's absence.
    await waitFor(() => {
      expect(within(unused).queryByRole('link', { name: `Parks app ${tag}` })).toBeNull();
      expect(within(unused).getByRole('link', { name: `Lonely table ${tag}` })).toBeInTheDocument();
    });

    // Used by many: the layer (the map and the hidden map), with its count; the app is not.
    await user.click(screen.getByRole('tab', { name: 'Used by many' }));
    await user.clear(screen.getByRole('combobox', { name: 'Type' }));
    await user.keyboard('{Enter}');
    const many = await screen.findByRole('table', { name: 'Used by many' });
    const layerLink = await within(many).findByRole('link', { name: `Parks layer ${tag}` });
    const row = layerLink.closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('2');
    expect(within(many).queryByRole('link', { name: `Parks app ${tag}` })).toBeNull();
    unmount();
  }, 40_000);
});
