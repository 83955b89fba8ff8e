/**
 * The item page and Add item against the real service (issue 25, items 3, 10 and 12): the item ID
 * with a copy button, "Change owner" into the transfer wizard, the type guessed from a URL and
 * overridable, "Open item" after adding, the type icon, URL items not reading "no data", and the
 * relationship form's feedback (a toast, "Already related", item ids checked as they are typed).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi, getItem, getRelatedItems, shareItem } from '../../api/index.ts';
import { iconForItemType } from '../../components/ItemTypeIcon.tsx';
import { IconAppWindow, IconFiles, IconLayers, IconMap, IconTiles } from '../../components/icons.tsx';
import { renderApp, signInAs } from '../../test/render.tsx';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

async function addAs(username: string, input: Parameters<typeof addItem>[2]) {
  const { token } = await signInAs(svc, username);
  configureApi({ portalUrl: svc.restUrl, token });
  return addItem(username, undefined, input);
}

const announced = () => screen.getByTestId('announcer-polite');

describe('item page: ID and owner', () => {
  it('shows the item ID with a copy button that copies it and announces "Copied"', async () => {
    const added = await addAs('user1', { title: 'Copy me', type: 'Web Map', text: '{}' });
    const { user } = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Copy me', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText('Item ID')).toHaveTextContent(added.id);
    await user.click(screen.getByRole('button', { name: 'Copy item ID' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(added.id);
    await waitFor(() => expect(announced()).toHaveTextContent('Copied'));
  });

  it('"Change owner" opens the transfer wizard with this item selected; others see why they cannot', async () => {
    // publisher1's role holds "Transfer own content to other members".
    const added = await addAs('publisher1', { title: 'Hand over', type: 'Web Map', text: '{}' });
    const { user, location, unmount } = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Hand over', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change owner' }));
    await waitFor(() => expect(location()).toBe(`/content/transfer?from=publisher1&items=${added.id}`));
    expect(await screen.findByTestId('transfer-selection')).toHaveTextContent(/^1 of/);
    unmount();

    // user1 sees the item (shared with the organization) but neither owns nor administers it.
    await shareItem('publisher1', added.id, { org: true });
    await signInAs(svc, 'user1');
    const other = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Hand over', level: 1 })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Change owner' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(/own it, or be an administrator of its organization with the privilege “Transfer any content”/);
    await other.user.click(button);
    expect(other.location()).toBe(`/content/items/${added.id}`);
    other.unmount();

    // An administrator of the organization may.
    await signInAs(svc, 'admin');
    const admin = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Hand over', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change owner' })).not.toHaveAttribute('aria-disabled');
    admin.unmount();
  }, 30_000);
});

describe('add item from a URL', () => {
  it('guesses the type from the URL, lets it be overridden, and offers "Open item", whose page names the host instead of "no data"', async () => {
    await signInAs(svc, 'user1');
    const { user, location } = renderApp('/content');
    await user.click(await screen.findByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add item' });
    await user.click(within(dialog).getByRole('tab', { name: 'URL' }));
    const url = within(dialog).getByRole('textbox', { name: /^URL/ });
    const type = within(dialog).getByRole('combobox', { name: /^Type/ });

    const enterUrl = async (text: string) => {
      await user.clear(url);
      await user.click(url);
      await user.paste(text);
    };
    await enterUrl('http://127.0.0.1:9/arcgis/rest/services/Parks/FeatureServer/0');
    expect(type).toHaveValue('Feature Service');
    expect(within(dialog).getByTestId('type-from-url')).toHaveTextContent('The URL looks like a Feature Service: Type is set to it.');
    // A changed URL changes a guessed type…
    await enterUrl('http://127.0.0.1:9/arcgis/rest/services/Basemap/MapServer');
    expect(type).toHaveValue('Map Service');
    // …but not one the member chose.
    await user.clear(type);
    await user.click(type);
    await user.paste('Image Service');
    await enterUrl('http://127.0.0.1:9/arcgis/rest/services/Parks/FeatureServer');
    expect(type).toHaveValue('Image Service');
    expect(within(dialog).getByTestId('type-from-url')).toHaveTextContent('The URL looks like a Feature Service.');
    await user.click(within(dialog).getByRole('button', { name: 'Use Feature Service' }));
    expect(type).toHaveValue('Feature Service');

    // Nothing answers on port 9: the service is named by its path, in an empty Title.
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await waitFor(() => expect(title).toHaveValue('Parks'));
    await user.clear(title);
    await user.paste('Parks from a URL');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add item' })).not.toBeInTheDocument());
    const toast = (await screen.findByText('“Parks from a URL” was added.')).closest('.mantine-Notification-root') as HTMLElement;
    await user.click(within(toast).getByRole('button', { name: 'Open item' }));

    expect(await screen.findByRole('heading', { name: 'Parks from a URL', level: 1 })).toBeInTheDocument();
    expect(location()).toMatch(/^\/content\/items\/[0-9a-f]{32}$/);
    expect(screen.getByText(/Feature Service · owned by/)).toHaveTextContent(/links to 127\.0\.0\.1:9$/);
    expect(screen.queryByText(/· no data/)).toBeNull();
  }, 60_000);

  it('proposes a title from the service: its JSON (documentInfo.Title, name) in an empty Title, never over a typed one', async () => {
    const described = await addAs('user1', { title: 'Described', type: 'Web Map', text: JSON.stringify({ documentInfo: { Title: 'Hydrant inventory' } }) });
    const named = await addAs('user1', {
      title: 'Named',
      type: 'Web Map',
      text: JSON.stringify({ name: 'Hydrants 3D', serviceDescription: 'A long description.' }),
    });
    for (const id of [described.id, named.id]) await shareItem('user1', id, { everyone: true });
    const { user } = renderApp('/content');
    await user.click(await screen.findByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add item' });
    await user.click(within(dialog).getByRole('tab', { name: 'URL' }));
    const url = within(dialog).getByRole('textbox', { name: /^URL/ });
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await user.click(url);
    await user.paste(`${svc.restUrl}/content/items/${described.id}/data`);
    await waitFor(() => expect(title).toHaveValue('Hydrant inventory'));
    expect(within(dialog).getByText('Named after the service: change it if you like.')).toBeInTheDocument();
    // Still the proposal: another URL replaces it.
    await user.clear(url);
    await user.paste(`${svc.restUrl}/content/items/${named.id}/data`);
    await waitFor(() => expect(title).toHaveValue('Hydrants 3D'));
    // A title the member typed stays.
    await user.clear(title);
    await user.paste('My hydrants');
    await user.clear(url);
    await user.paste(`${svc.restUrl}/content/items/${described.id}/data`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(title).toHaveValue('My hydrants');
  }, 60_000);

  it('maps each item type to one icon, families to theirs, and anything else to a file', () => {
    expect(iconForItemType('Web Map')).toBe(IconMap);
    expect(iconForItemType('feature service')).toBe(IconLayers);
    expect(iconForItemType('Vector Tile Service')).toBe(IconTiles);
    expect(iconForItemType('Geoprocessing Service')).toBe(IconTiles);
    expect(iconForItemType('Web Mapping Application')).toBe(IconAppWindow);
    expect(iconForItemType('Insights Workbook')).toBe(IconFiles);
  });
});

describe('tags', () => {
  it('never keeps a separator in a tag: "datastore," left by a phone keyboard or a paste becomes "datastore"', async () => {
    const added = await addAs('user1', { title: 'Tag me', type: 'Web Map', text: '{}', tags: ['roads'] });
    const { user } = renderApp(`/content/items/${added.id}`);
    const tags = (await screen.findAllByLabelText('Tags')).find((el) => el.tagName === 'INPUT' && el.getAttribute('type') !== 'hidden')!;
    // A phone keyboard's comma sends no "," key: the text arrives as a change, then Enter or leaving the field adds it.
    await user.click(tags);
    fireEvent.change(tags, { target: { value: 'datastore, ' } });
    fireEvent.keyDown(tags, { key: 'Enter' });
    fireEvent.change(tags, { target: { value: 'parcels ,Roads,' } });
    // Text still in the field is added on leaving it, split the same way.
    fireEvent.blur(tags);
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(async () => expect((await getItem(added.id)).tags).toEqual(['roads', 'datastore', 'parcels']));
  });
});

describe('relationship feedback', () => {
  it('checks a typed item id, shows the found title, toasts an added relationship and names a second add "Already related"', async () => {
    const service = await addAs('user1', {
      title: 'Trail service',
      type: 'Feature Service',
      url: 'http://127.0.0.1:9/arcgis/rest/services/Trails/FeatureServer',
    });
    const map = await addAs('user1', { title: 'Trail web map', type: 'Web Map', text: '{}' });
    const { user } = renderApp(`/content/items/${map.id}`);
    expect(await screen.findByRole('heading', { name: 'Trail web map', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Related items' }));
    await user.click(await screen.findByRole('combobox', { name: 'Relationship type' }));
    await user.click(await screen.findByRole('option', { name: /^Map2Service/ }));
    const picker = screen.getByRole('combobox', { name: 'Destination item' });

    // An id that names no item: said on the field, once typing settles.
    const wire = recordRequests();
    await user.click(picker);
    await user.paste('0123456789abcdef0123456789abcdef');
    await waitFor(() => expect(picker).toHaveAccessibleDescription('No item with this id'), { timeout: 5_000 });
    await waitFor(() => expect(announced()).toHaveTextContent('No item with this id'));
    expect(screen.getByRole('button', { name: 'Add relationship' })).toBeDisabled();
    // A cut-short id is named as such, not searched as a title would be.
    await user.clear(picker);
    await user.paste(service.id.slice(0, 30));
    await waitFor(() => expect(picker).toHaveAccessibleDescription('An item id has 32 letters and digits; this has 30'));

    // The real id: found, chosen, and shown by its title.
    await user.clear(picker);
    await user.paste(service.id);
    await waitFor(() => expect(picker).toHaveValue('Trail service — Feature Service (user1)'));
    await waitFor(() => expect(announced()).toHaveTextContent('Item found: Trail service'));
    expect(picker).not.toHaveAccessibleDescription(/No item|32 letters/);
    // One lookup per settled text, never a loop between the id and the title.
    await new Promise((r) => setTimeout(r, 600));
    const lookups = wire.sent.filter((r) => r.path === 'search').map((r) => r.params.get('q'));
    wire.stop();
    expect(lookups.filter((q) => q === `id:${service.id}`)).toHaveLength(1);
    expect(lookups.length).toBeLessThanOrEqual(4);

    await user.click(screen.getByRole('button', { name: 'Add relationship' }));
    const toast = (await screen.findByText('“Trail web map” now has a Map2Service relationship to “Trail service”.')).closest(
      '.mantine-Notification-root',
    ) as HTMLElement;
    expect(within(toast).getByText('Relationship added')).toBeInTheDocument();
    const origin = await screen.findByRole('table', { name: 'Related items: this item is the origin' });
    expect(within(origin).getByRole('link', { name: 'Trail service' })).toBeInTheDocument();

    // The same relationship again: named, and not sent.
    await user.click(picker);
    await user.paste(service.id);
    expect(await screen.findByTestId('already-related')).toHaveTextContent('Already related: this item already has a Map2Service relationship to that item.');
    expect(screen.getByRole('button', { name: 'Add relationship' })).toBeDisabled();
    const related = await getRelatedItems(map.id, ['Map2Service'], 'forward');
    expect(related.relatedItems.map((r) => r.id)).toEqual([service.id]);
  }, 40_000);
});
