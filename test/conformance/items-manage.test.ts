/**
 * Esri's client (@esri/arcgis-rest-portal / -request 4.10.2) against the running local portal over
 * real HTTP: reading, changing, searching, sharing, moving and deleting items, and folders.
 * Items are inserted with SQL (the add operations have their own conformance test).
 */
import { randomUUID } from 'node:crypto';
import {
  createFolder,
  getItem,
  getItemData,
  getUserContent,
  moveItem,
  protectItem,
  removeItem,
  searchItems,
  SearchQueryBuilder,
  setItemAccess,
  shareItemWithGroup,
  unprotectItem,
  unshareItemWithGroup,
  updateItem,
  createGroup,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, ArcGISRequestError } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertItem } from '../../src/server/areas/items/manage.test-support.ts';
import { startService, type TestService } from '../support/service.ts';
import { signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;
const word = `Conf${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, user1, publisher] = await signInDemo(portal, 'admin', 'user1', 'publisher1');
});
afterAll(() => svc.close());

describe('items with rest-js', () => {
  it('getItem and getItemData (JSON data, and undefined when there is none)', async () => {
    const id = await insertItem(svc, 'user1', { title: `${word} Data`, text: '{"operationalLayers":[]}' });
    const item = await getItem(id, { authentication: user1 });
    expect(item).toMatchObject({ id, title: `${word} Data`, owner: 'user1', access: 'private' });
    expect(await getItemData(id, { authentication: user1 })).toEqual({ operationalLayers: [] });
    const empty = await insertItem(svc, 'user1', { title: `${word} Empty` });
    expect(await getItemData(empty, { authentication: user1 })).toBeUndefined();
    await expect(getItem(id, { authentication: publisher })).rejects.toMatchObject({ name: 'ArcGISRequestError', code: 'CONT_0001' });
  });

  it('updateItem changes fields; the item comes back changed', async () => {
    const id = await insertItem(svc, 'user1', { title: `${word} Old` });
    const res = await updateItem({ item: { id, title: `${word} New`, tags: ['a', 'b'], snippet: 'short' }, authentication: user1 });
    expect(res).toMatchObject({ success: true, id });
    expect(await getItem(id, { authentication: user1 })).toMatchObject({ title: `${word} New`, tags: ['a', 'b'], snippet: 'short' });
    await expect(updateItem({ item: { id, snippet: 'x'.repeat(2049) }, authentication: user1 })).rejects.toBeInstanceOf(ArcGISRequestError);
  });

  it('protectItem / unprotectItem / removeItem', async () => {
    const id = await insertItem(svc, 'user1', { title: `${word} Protected` });
    expect(await protectItem({ id, owner: 'user1', authentication: user1 })).toEqual({ success: true });
    await expect(removeItem({ id, owner: 'user1', authentication: user1 })).rejects.toBeInstanceOf(ArcGISRequestError);
    expect(await unprotectItem({ id, owner: 'user1', authentication: user1 })).toEqual({ success: true });
    expect(await removeItem({ id, owner: 'user1', authentication: user1 })).toEqual({ success: true, itemId: id });
    await expect(getItem(id, { authentication: user1 })).rejects.toBeInstanceOf(ArcGISRequestError);
  });

  it('createFolder, moveItem and getUserContent', async () => {
    const { folder } = await createFolder({ title: `${word} Folder`, authentication: user1 });
    expect(folder).toMatchObject({ title: `${word} Folder`, username: 'user1' });
    const id = await insertItem(svc, 'user1', { title: `${word} Movable` });
    expect(await moveItem({ itemId: id, folderId: folder.id, authentication: user1 })).toMatchObject({ success: true, itemId: id, folder: folder.id });
    const content = await getUserContent({ folderId: folder.id, authentication: user1 });
    expect(content.currentFolder).toMatchObject({ id: folder.id });
    expect(content.items.map((i) => i.id)).toEqual([id]);
    const root = await getUserContent({ authentication: user1, num: 100 });
    expect(root.folders.map((f) => f.id)).toContain(folder.id);
    expect(root.items.map((i) => i.id)).not.toContain(id);
    expect(await moveItem({ itemId: id, folderId: '/', authentication: user1 })).toMatchObject({ success: true, folder: null });
  });

  it('searchItems with SearchQueryBuilder', async () => {
    const a = await insertItem(svc, 'user1', { title: `${word} Alpha`, tags: [word], access: 'org' });
    const b = await insertItem(svc, 'publisher1', { title: `${word} Beta`, tags: [word], access: 'public' });
    await insertItem(svc, 'user1', { title: `${word} Hidden`, tags: [word] });
    const q = new SearchQueryBuilder().match(word).in('tags').and().startGroup().match('user1').in('owner').or().match('publisher1').in('owner').endGroup();
    const res = await searchItems({ q, sortField: 'title', authentication: publisher });
    expect(res.results.map((r) => r.id)).toEqual([a, b]);
    expect(res.total).toBe(2);
    const paged = await searchItems({ q: new SearchQueryBuilder().match(word).in('tags'), num: 1, sortField: 'title', authentication: admin });
    expect(paged.total).toBe(3);
    expect(paged.nextStart).toBe(2);
    const next = await paged.nextPage!();
    expect(next.start).toBe(2);
  });

  it('shareItemWithGroup (the search check first), unshareItemWithGroup, setItemAccess', async () => {
    const group = (await createGroup({ group: { title: `${word} Group`, access: 'org' }, authentication: user1 })).group;
    const id = await insertItem(svc, 'user1', { title: `${word} Shared` });
    const shared = await shareItemWithGroup({ id, groupId: group.id, authentication: user1 });
    expect(shared).toMatchObject({ itemId: id, notSharedWith: [] });
    // The second time the search finds it and short-circuits.
    expect(await shareItemWithGroup({ id, groupId: group.id, authentication: user1 })).toMatchObject({ itemId: id, shortcut: true });
    expect((await getItem(id, { authentication: user1 })).access).toBe('shared');
    expect(await unshareItemWithGroup({ id, groupId: group.id, authentication: user1 })).toMatchObject({ itemId: id, notUnsharedFrom: [] });
    await setItemAccess({ id, access: 'public', authentication: user1 });
    expect((await getItem(id, { portal })).access).toBe('public');
    await setItemAccess({ id, access: 'org', authentication: user1 });
    expect((await getItem(id, { authentication: user1 })).access).toBe('org');
    await setItemAccess({ id, access: 'private', authentication: user1 });
    expect((await getItem(id, { authentication: user1 })).access).toBe('private');
  });
});
