/**
 * The Content area against the real service: the list's filters become the search, the Add item
 * form checks JSON and URLs before sending and puts the portal's refusals beside the fields, items
 * appear in the list, and the content status control explains before it applies.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi, getItem, shareItem } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { statusSideEffects } from './ContentStatusControl.tsx';
import { addItemSchema, contentSearchQuery, editItemSchema, EMPTY_ADD_ITEM, parseContentList } from './schemas.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

describe('content list state', () => {
  it('turns filters into one search, quoting values and keeping the free text apart', () => {
    const list = parseContentList(new URLSearchParams('scope=org&owner=user1&type=Feature Service&status=authoritative&access=shared&q=parks (old)'));
    expect(contentSearchQuery(list, { username: 'admin', orgId: 'ORG1' })).toBe(
      'orgid:ORG1 AND owner:"user1" AND type:"Feature Service" AND (contentstatus:org_authoritative OR contentstatus:public_authoritative) AND access:shared AND (parks  old)',
    );
    expect(contentSearchQuery(parseContentList(new URLSearchParams('folder=0123456789abcdef0123456789abcdef')), { username: 'pub"lisher' })).toBe(
      'owner:"pub lisher" AND ownerfolder:0123456789abcdef0123456789abcdef',
    );
    // Anything the address cannot hold falls back to the default.
    expect(parseContentList(new URLSearchParams('num=1000&scope=everyone&folder=../x&status=bogus'))).toMatchObject({
      num: 25,
      scope: 'mine',
      folder: '',
      status: '',
    });
  });

  it('checks the add form per mode: a file, an http URL, JSON that parses, and a relationship with both its parts', () => {
    const base = { ...EMPTY_ADD_ITEM, title: 'T', type: 'Web Map' };
    const problems = (v: object) => {
      const r = addItemSchema.safeParse({ ...base, ...v });
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    };
    expect(problems({ mode: 'file' })).toEqual({ file: 'Choose a file' });
    expect(problems({ mode: 'url', url: 'ftp://x' })).toEqual({ url: 'Enter a URL that starts with http:// or https://' });
    expect(problems({ mode: 'url', url: '' })).toEqual({ url: 'Enter a URL' });
    expect(problems({ mode: 'url', url: 'https://example.com/FeatureServer' })).toEqual({});
    expect(problems({ mode: 'text', text: '{"a":' }).text).toMatch(/^The text is not valid JSON/);
    expect(problems({ mode: 'text', text: '{"operationalLayers":[]}' })).toEqual({});
    expect(problems({ mode: 'dataUrl', dataUrl: 'not a url' })).toEqual({ dataUrl: 'Enter a URL that starts with http:// or https://' });
    expect(problems({ mode: 'text', text: '{}', relate: 'origin', relationshipType: 'Nope', relatedItemId: 'short' })).toEqual({
      relationshipType: 'Choose a relationship type',
      relatedItemId: 'Choose the related item, or enter its ID (32 letters and digits)',
    });
    expect(problems({ mode: 'text', text: '{}', useProxy: true })).toEqual({ useProxy: 'A service proxy needs a URL item' });
  });

  it('names the field in each message: what to enter, and the limit of a field that is too long (issue 25, item 11)', () => {
    const problems = (v: object) => {
      const r = addItemSchema.safeParse({ ...EMPTY_ADD_ITEM, mode: 'text', text: '{}', ...v });
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    };
    expect(problems({})).toEqual({ title: 'Enter a title', type: 'Enter or choose a type' });
    expect(problems({ title: 'T', type: 'CSV', snippet: 'x'.repeat(2049) })).toEqual({ snippet: 'The summary can have at most 2,048 characters' });
    expect(problems({ title: 'x'.repeat(257), type: 'CSV' })).toEqual({ title: 'The title can have at most 256 characters' });
    expect(problems({ title: 'T', type: 'CSV', tags: ['x'.repeat(257)] })).toEqual({ 'tags.0': 'Each tag can have at most 256 characters' });
    const edit = editItemSchema.safeParse({
      title: ' ',
      snippet: '',
      description: 'é'.repeat(40_000),
      tags: [],
      url: '',
      accessInformation: '',
      licenseInfo: '',
    });
    expect(edit.success ? [] : edit.error.issues.map((i) => i.message)).toEqual(['Enter a title', 'The description can have at most 65,535 bytes']);
  });

  it('explains what a content status will change before it is applied', () => {
    const item = { contentStatus: null, access: 'public' as const };
    expect(statusSideEffects(item, 'org_authoritative', { access: 'public', isVerified: true })).toContain(
      'The organization is verified and the item is public, so the portal makes it public authoritative.',
    );
    expect(statusSideEffects({ contentStatus: 'org_authoritative', access: 'org' }, 'deprecated', undefined)).toContain(
      'It loses its authoritative status, its place first in search, and its protection from deletion.',
    );
    expect(statusSideEffects({ contentStatus: 'deprecated', access: 'org' }, 'deprecated', undefined)).toEqual([]);
  });
});

describe('content page', () => {
  it('adds a JSON item after the form refused bad JSON (saying where), then a Data Store item from a template, and lists both', async () => {
    await signInAs(svc, 'user1');
    const { user } = renderApp('/content');
    expect(await screen.findByText('No items yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add item' });
    await user.click(within(dialog).getByRole('tab', { name: 'Text or JSON' }));
    const text = within(dialog).getByRole('textbox', { name: /^Text or JSON/ });
    await user.click(text);
    await user.paste('{"operationalLayers": [');
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Trail map');
    await user.type(within(dialog).getByRole('combobox', { name: /^Type/ }), 'Web Map');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    // Where the mistake is, not only that there is one.
    expect(await within(dialog).findByText(/^The text is not valid JSON \(line 1, column 24: /)).toBeInTheDocument();
    // The dialog's actions stay in view: their footer is outside the part that scrolls.
    const footer = within(dialog).getByRole('button', { name: 'Add item' }).closest('[data-dialog-footer]');
    expect(footer?.closest('[data-dialog-layout]')).not.toBeNull();
    expect(footer?.closest('[data-dialog-scroll]')).toBeNull();

    await user.clear(text);
    await user.click(text);
    await user.paste('{"operationalLayers": []}');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add item' })).not.toBeInTheDocument());
    const table = await screen.findByRole('table', { name: 'Content' });
    expect(await within(table).findByRole('link', { name: 'Trail map' })).toBeInTheDocument();

    // A Data Store item: the portal's shapes are checked here first, and a template is one click away.
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    const store = await screen.findByRole('dialog', { name: 'Add item' });
    await user.click(within(store).getByRole('tab', { name: 'Text or JSON' }));
    await user.type(within(store).getByRole('combobox', { name: /^Type/ }), 'Data Store');
    await user.type(within(store).getByRole('textbox', { name: /^Title/ }), 'Parcels database');
    await user.click(within(store).getByRole('textbox', { name: /^Text or JSON/ }));
    await user.paste('{"type": "egdb", "path": "/enterpriseDatabases/parcels", "info": {}}');
    await user.click(within(store).getByRole('button', { name: 'Add item' }));
    expect(await within(store).findByText(/'text\.info\.connectionString' must be the database connection string/)).toBeInTheDocument();
    await user.click(within(store).getByRole('button', { name: 'Folder (file share)' }));
    await user.click(await screen.findByRole('button', { name: 'Replace' }));
    expect(within(store).getByRole<HTMLTextAreaElement>('textbox', { name: /^Text or JSON/ }).value).toContain('"path": "/fileShares/<name>"');
    await user.click(within(store).getByRole('button', { name: 'Add item' }));
    expect(await within(table).findByRole('link', { name: 'Parcels database' })).toBeInTheDocument();
  });

  it('a data URL item goes to the job tray, which follows it until the portal says how it ended', async () => {
    await signInAs(svc, 'user1');
    const { user } = renderApp('/content');
    await user.click(await screen.findByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add item' });
    await user.click(within(dialog).getByRole('tab', { name: 'Download from URL' }));
    // Nothing listens on this port: the download fails, and the tray says so.
    await user.type(within(dialog).getByRole('textbox', { name: /^Download URL/ }), 'http://127.0.0.1:9/parks.csv');
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Remote parks');
    await user.type(within(dialog).getByRole('combobox', { name: /^Type/ }), 'CSV');
    await user.click(within(dialog).getByRole('button', { name: 'Add item' }));
    // The tray is a chip in the header; a failed entry stays, and the chip says so.
    const chip = await screen.findByRole('button', { name: /^Uploads and downloads/ });
    await waitFor(() => expect(chip).toHaveAccessibleName('Uploads and downloads: 1 failed'), { timeout: 15_000 });
    await user.click(chip);
    const tray = await screen.findByRole('dialog', { name: 'Uploads and downloads' });
    expect(within(tray).getByText('Remote parks')).toBeInTheDocument();
    expect(within(tray).getByText('Failed')).toBeInTheDocument();
    // The portal's reason, not a guess.
    expect(within(tray).getByText(/127\.0\.0\.1:9|connect|refused|reach/i)).toBeInTheDocument();
  });

  it("the owner and an administrator find a proxied item's proxy URL on its page, with a copy button; other members do not", async () => {
    const { token } = await signInAs(svc, 'user1');
    configureApi({ portalUrl: svc.restUrl, token });
    const added = await addItem('user1', undefined, {
      title: 'Secured parcels',
      type: 'Map Service',
      url: 'https://services.example.com/arcgis/rest/services/Parcels/MapServer',
      serviceUsername: 'svc',
      servicePassword: 'stored-secret',
      service: { hitsPerInterval: 10 },
    });
    expect(added.proxyUrl).toMatch(new RegExp(`/sharing/rest/content/items/${added.id}/proxy$`));
    await shareItem('user1', added.id, { org: true });
    const { user, unmount } = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Secured parcels', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Data and files' }));
    expect(await screen.findByLabelText('Proxy URL')).toHaveTextContent(added.proxyUrl!);
    expect(screen.getByRole('button', { name: 'Copy proxy URL' })).toBeInTheDocument();
    expect(screen.queryByText(/stored-secret/)).toBeNull();
    unmount();

    for (const [username, sees] of [
      ['admin', true],
      ['publisher1', false],
    ] as const) {
      const session = await signInAs(svc, username);
      configureApi({ portalUrl: svc.restUrl, token: session.token });
      const view = renderApp(`/content/items/${added.id}`);
      expect(await screen.findByRole('heading', { name: 'Secured parcels', level: 1 })).toBeInTheDocument();
      await view.user.click(screen.getByRole('tab', { name: 'Data and files' }));
      if (sees) expect(await screen.findByLabelText('Proxy URL')).toHaveTextContent(added.proxyUrl!);
      else {
        expect(await screen.findByText('Only the owner and administrators see the info files.')).toBeInTheDocument();
        expect(screen.queryByLabelText('Proxy URL')).toBeNull();
        expect(screen.queryByText(added.proxyUrl!)).toBeNull();
      }
      view.unmount();
    }
  });

  it("an item's page shows its status badge; a member who is not an administrator cannot make it authoritative", async () => {
    const { token } = await signInAs(svc, 'user1');
    configureApi({ portalUrl: svc.restUrl, token });
    const added = await addItem('user1', undefined, { title: 'Old trails', type: 'Web Map', text: '{}' });
    const { user } = renderApp(`/content/items/${added.id}`);
    expect(await screen.findByRole('heading', { name: 'Old trails', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Content status' }));
    // The choice can be made to read its effects; applying it is refused with the reason.
    await user.click(screen.getByRole('radio', { name: 'Authoritative', description: /Administrators only/ }));
    expect(screen.getByText('It cannot be deleted while it is authoritative.')).toBeInTheDocument();
    // A new item is shared with its owner only: the mark is said to matter once it is shared.
    expect(screen.getByText(/shared with its owner only, so nobody else sees it yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply status' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply status' })).toHaveAccessibleDescription(/Only an administrator of the organization/);
    expect(screen.getByTestId('status-consequences')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByTestId('status-consequences')).toHaveTextContent(/Only an administrator of the organization/);
    await user.click(screen.getByRole('radio', { name: /^Deprecated/ }));
    expect(screen.getByText('It is marked deprecated wherever it is listed, so people move to a replacement.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply status' }));
    // Deprecating asks first, with what uses the item (its impact check).
    const confirm = await screen.findByRole('dialog', { name: 'Deprecate “Old trails”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Deprecate' }));
    await waitFor(() => expect(screen.getAllByTestId('content-status-badge')[0]).toHaveTextContent('Deprecated'), { timeout: 8_000 });
    expect((await getItem(added.id)).contentStatus).toBe('deprecated');
  });
});
