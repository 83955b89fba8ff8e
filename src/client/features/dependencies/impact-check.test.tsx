/**
 * Impact checks in the confirm steps, and "Deprecate and point to a replacement", against the real
 * local portal (its dependency index): a layer used by a map used by an app.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, configureApi, fetchItemData, getHistory, getItem, request, shareItem } from '../../api/index.ts';
import { runUndo } from '../../lib/history/run.ts';
import { planUndo } from '../../lib/history/undo.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

const announced = () => screen.getByTestId('announcer-polite');
let n = 0;

/** A layer (a Feature Service item), a web map showing it (by id and URL), and an app showing the map. */
async function seedChain(username: string) {
  n += 1;
  const { token } = await signInAs(svc, username);
  configureApi({ portalUrl: svc.restUrl, token });
  const url = `https://127.0.0.1/arcgis/rest/services/Parks${n}/FeatureServer`;
  const layer = await addItem(username, undefined, { title: `Parks layer ${n}`, type: 'Feature Service', url });
  const mapData = {
    operationalLayers: [{ id: 'parks', title: 'Parks', itemId: layer.id, url: `${url}/0`, layerType: 'ArcGISFeatureLayer' }],
    baseMap: { baseMapLayers: [] },
  };
  const map = await addItem(username, undefined, { title: `City map ${n}`, type: 'Web Map', text: JSON.stringify(mapData) });
  const app = await addItem(username, undefined, {
    title: `City app ${n}`,
    type: 'Web Mapping Application',
    text: JSON.stringify({ values: { webmap: map.id } }),
  });
  return { layer: { id: layer.id, url }, map: { id: map.id, data: mapData }, app: { id: app.id } };
}

describe('impact checks', () => {
  it('deleting a layer names the map and the app that will stop working, before anything is deleted', async () => {
    const { layer } = await seedChain('user1');
    const { user } = renderApp(`/content/items/${layer.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete item' }));
    const dialog = await screen.findByRole('dialog', { name: `Delete “Parks layer ${n}”?` });
    const stop = await within(dialog).findByRole('list', { name: 'Items that will stop working' }, { timeout: 10_000 });
    const rows = within(stop)
      .getAllByTestId('impact-entry')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      `City map ${n} (Web Map, user1, Owner only) — uses 'Parks layer ${n}' as a layer`,
      `City app ${n} (Web Mapping Application, user1, Owner only) — uses 'City map ${n}' as a web map`,
    ]);
    await waitFor(() => expect(announced()).toHaveTextContent('2 items will stop working.'));
    // The confirm stays usable; cancelling deletes nothing.
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await getItem(layer.id)).id).toBe(layer.id);
  }, 40_000);

  it('an item nothing uses says so', async () => {
    await signInAs(svc, 'user1');
    const lone = await addItem('user1', undefined, { title: 'Nobody uses me', type: 'Web Map', text: '{}' });
    const { user } = renderApp(`/content/items/${lone.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete item' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Nothing that you can see uses this item.', {}, { timeout: 10_000 })).toBeInTheDocument();
  }, 30_000);

  it('deleting a registered app warns that sign-ins through it stop working, though no item uses it', async () => {
    const { token } = await signInAs(svc, 'publisher1');
    configureApi({ portalUrl: svc.restUrl, token });
    const app = await addItem('publisher1', undefined, { title: 'Field sign-in app', type: 'Application' });
    await request('oauth2/registerApp', { itemId: app.id, appType: 'browser', redirect_uris: '[]' }, { method: 'POST' });
    const { user } = renderApp(`/content/items/${app.id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete item' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Sign-ins through this app stop working', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/nobody can sign in through it/);
  }, 30_000);

  it('deprecating names the maps and apps that will show a deprecated item, and offers the replace flow', async () => {
    const { layer } = await seedChain('user1');
    const { user } = renderApp(`/content/items/${layer.id}`);
    await user.click(await screen.findByRole('tab', { name: 'Content status' }));
    await user.click(await screen.findByRole('radio', { name: /^Deprecated/ }));
    await user.click(screen.getByRole('button', { name: 'Apply status' }));
    const dialog = await screen.findByRole('dialog', { name: `Deprecate “Parks layer ${n}”?` });
    const list = await within(dialog).findByRole('list', { name: 'Items that use the deprecated item' }, { timeout: 10_000 });
    expect(within(list).getByText(`City map ${n} (Web Map, user1, Owner only)`)).toBeInTheDocument();
    expect(within(list).getByText(`City app ${n} (Web Mapping Application, user1, Owner only)`)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Deprecate and point to a replacement…' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deprecate' }));
    await waitFor(async () => expect((await getItem(layer.id)).contentStatus).toBe('deprecated'));
  }, 40_000);

  it('narrowing the sharing of a layer used by a public map warns that everyone will see a broken layer', async () => {
    const { layer, map } = await seedChain('user1');
    await shareItem('user1', layer.id, { everyone: true, org: true });
    await shareItem('user1', map.id, { everyone: true, org: true });
    const { user } = renderApp(`/content/items/${layer.id}`);
    await user.click(await screen.findByRole('tab', { name: 'Sharing' }));
    await user.click(await screen.findByRole('radio', { name: 'Organization' }));
    await user.click(screen.getByRole('button', { name: 'Save sharing' }));
    const dialog = await screen.findByRole('dialog', { name: `Share “Parks layer ${n}” more narrowly?` });
    const who = await within(dialog).findByRole('list', { name: 'Who will see broken layers' }, { timeout: 10_000 });
    expect(
      within(who)
        .getAllByTestId('impact-entry')
        .map((r) => r.textContent),
    ).toEqual([`Everyone (public) viewing 'City map ${n}' will see a broken layer.`]);
    // The app is the owner's alone: the owner still sees the layer.
    expect(dialog).not.toHaveTextContent(`City app ${n}' will see`);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await getItem(layer.id)).access).toBe('public');
  }, 40_000);
});

describe('deprecate and point to a replacement', () => {
  it('rewrites the map to the new layer (id and URL), deprecates the old one, and the history event undoes it', async () => {
    const { layer, map } = await seedChain('user1');
    const newUrl = `https://localhost/arcgis/rest/services/Parks${n}v2/FeatureServer`;
    const replacement = await addItem('user1', undefined, { title: `Parks layer ${n} v2`, type: 'Feature Service', url: newUrl });
    const { user } = renderApp(`/content/items/${layer.id}`);
    await user.click(await screen.findByRole('tab', { name: 'Content status' }));
    await user.click(await screen.findByRole('button', { name: 'Deprecate and point to a replacement…' }));
    const dialog = await screen.findByRole('dialog', { name: `Deprecate “Parks layer ${n}” and point to a replacement` });
    // Only the map names the layer in its data; the app uses the map.
    const referrers = await within(dialog).findAllByTestId('replace-referrer', {}, { timeout: 10_000 });
    expect(referrers.map((r) => r.textContent)).toEqual([`City map ${n} (Web Map, user1) — uses it as a layer`]);
    const confirm = within(dialog).getByRole('button', { name: 'Point 1 item to the replacement and deprecate' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: /^Replacement/ }));
    await user.paste(replacement.id);
    await waitFor(() => expect(confirm).toBeEnabled(), { timeout: 5_000 });
    await user.click(confirm);

    const results = await within(dialog).findByRole('table', { name: 'Replacement results' }, { timeout: 10_000 });
    expect(within(results).getByText(`City map ${n}`).closest('tr')).toHaveAttribute('data-status', 'updated');
    expect(within(dialog).getByTestId('replace-deprecated')).toHaveTextContent(`“Parks layer ${n}” is now deprecated.`);
    await waitFor(() => expect(announced()).toHaveTextContent(`1 updated, 0 skipped, 0 failed. “Parks layer ${n}” is deprecated.`));

    // Read back through the REST API.
    const readMap = async () => JSON.parse(await (await fetchItemData(map.id)).blob.text()) as typeof map.data;
    expect((await readMap()).operationalLayers[0]).toMatchObject({ itemId: replacement.id, url: `${newUrl}/0`, title: 'Parks' });
    expect((await getItem(layer.id)).contentStatus).toBe('deprecated');

    // The map's history records the swap; its undo (by an administrator, who reads history) puts the old layer back.
    const { user: me, token } = await signInAs(svc, 'admin');
    configureApi({ portalUrl: svc.restUrl, token });
    const events = await getHistory(me.orgId, { id: map.id, types: ['i'], sortOrder: 'desc', num: 10 });
    const swap = events.items.find((e) => Array.isArray(e.data?.replacedReferences));
    expect(swap?.data.replacedReferences).toEqual([
      { from: layer.id, to: replacement.id },
      { from: layer.url, to: newUrl },
    ]);
    const plan = planUndo(swap!);
    if (!plan.undoable) throw new Error(plan.reason);
    expect(await runUndo(me.orgId, [plan])).toEqual([expect.objectContaining({ ok: true })]);
    expect(await readMap()).toEqual(map.data);
  }, 60_000);

  it("lists someone else's map as skipped, with why, for a member who may not update it", async () => {
    const { layer } = await seedChain('user1');
    // publisher1's map uses user1's layer; user1 may not change publisher1's map.
    await shareItem('user1', layer.id, { org: true });
    const { token } = await signInAs(svc, 'publisher1');
    configureApi({ portalUrl: svc.restUrl, token });
    await addItem('publisher1', undefined, {
      title: `Publisher map ${n}`,
      type: 'Web Map',
      text: JSON.stringify({ operationalLayers: [{ id: 'p', itemId: layer.id }] }),
    }).then((m) => shareItem('publisher1', m.id, { org: true }));
    const replacement = await (async () => {
      await signInAs(svc, 'user1');
      return addItem('user1', undefined, { title: `Replacement ${n}`, type: 'Feature Service', url: 'https://localhost/arcgis/rest/services/R/FeatureServer' });
    })();
    const { user } = renderApp(`/content/items/${layer.id}`);
    await user.click(await screen.findByRole('tab', { name: 'Content status' }));
    await user.click(await screen.findByRole('button', { name: 'Deprecate and point to a replacement…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: /^Replacement/ }));
    await user.paste(replacement.id);
    const row = await within(dialog).findByText(
      (_, el) => el?.getAttribute('data-testid') === 'replace-referrer' && /Publisher map/.test(el.textContent ?? ''),
      {},
      { timeout: 10_000 },
    );
    await waitFor(() => expect(row).toHaveTextContent(/Will be skipped: It belongs to publisher1/));
    const go = within(dialog).getByRole('button', { name: 'Point 1 item to the replacement and deprecate' });
    await waitFor(() => expect(go).toBeEnabled(), { timeout: 5_000 });
    await user.click(go);
    const results = await within(dialog).findByRole('table', { name: 'Replacement results' }, { timeout: 10_000 });
    const skipped = within(results).getByText(`Publisher map ${n}`).closest('tr')!;
    expect(skipped).toHaveAttribute('data-status', 'skipped');
    expect(skipped).toHaveTextContent(/changing someone else's item needs the privilege .*portal:admin:updateItems/);
    expect(within(results).getByText(`City map ${n}`).closest('tr')).toHaveAttribute('data-status', 'updated');
  }, 60_000);
});
