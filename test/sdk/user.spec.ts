/**
 * PortalUser as an app uses it: the signed-in user's folders, items, groups and tags, adding and
 * deleting an item. The SDK builds content/users/<x> and community/users/<x> paths from the
 * user's id, not the username.
 */
import { expect, test } from './fixtures.ts';
import { addItem, addToGroup, createGroup, newPublisher, uniqueTag } from './support/data.ts';

test('fetchFolders, fetchItems (paged, in a folder) and fetchTags of the signed-in user', async ({ app, env }) => {
  const { svc } = env.portal;
  const tag = uniqueTag('user');
  // Its own member: fetchItems lists everything at the root, and other tests add to the demo accounts'.
  const owner = await newPublisher(svc, 'sdk_user');
  const token = await svc.tokenFor(owner);
  const folder = await svc.post(`content/users/${owner}/createFolder`, { title: tag }, token);
  expect(folder.success).toBe(true);
  for (const title of ['First', 'Second', 'Third'])
    await addItem(svc, owner, { title: `${tag} ${title}`, type: 'Web Map', tags: `${tag},shared-tag`, text: '{}' });
  const moved = await addItem(svc, owner, { title: `${tag} In folder`, type: 'Web Map', tags: tag, text: '{}' });
  expect((await svc.post(`content/users/${owner}/items/${moved}/move`, { folder: folder.folder.id }, token)).success).toBe(true);

  await app.registerToken(owner);
  const seen = await app.run(async (folderTitle) => {
    const portal = new window.sdk.Portal({ authMode: 'immediate' });
    await portal.load();
    const user = portal.user!;
    const folders = await user.fetchFolders();
    const folder = folders.find((f) => f.title === folderTitle);
    const root1 = await user.fetchItems({ num: 2, sortField: 'title', sortOrder: 'asc' });
    const root2 = await user.fetchItems({ num: 2, start: root1.nextStart, sortField: 'title', sortOrder: 'asc' });
    const inFolder = await user.fetchItems({ folder });
    const tags = await user.fetchTags();
    return {
      folderFound: !!folder,
      root: [...root1.items, ...root2.items].map((i) => i.title),
      total: root1.total,
      nextStarts: [root1.nextStart, root2.nextStart],
      inFolder: inFolder.items.map((i) => i.title),
      sharedTag: tags.find((t) => t.tag === 'shared-tag')?.count,
    };
  }, tag);
  expect(seen.folderFound).toBe(true);
  expect(seen.total).toBe(3);
  expect(seen.root).toEqual([`${tag} First`, `${tag} Second`, `${tag} Third`]);
  expect(seen.nextStarts).toEqual([3, -1]);
  expect(seen.inFolder).toEqual([`${tag} In folder`]);
  expect(seen.sharedTag).toBe(3);
});

test('fetchGroups lists the groups the user belongs to', async ({ app, env }) => {
  const tag = uniqueTag('membership');
  const groupId = await createGroup(env.portal.svc, 'admin', `${tag} team`, tag);
  await addToGroup(env.portal.svc, groupId, ['user1'], 'admin');
  await app.registerToken('user1');
  const groups = await app.run(async () => {
    const portal = new window.sdk.Portal({ authMode: 'immediate' });
    await portal.load();
    return (await portal.user!.fetchGroups()).map((g) => ({ id: g.id, title: g.title }));
  });
  expect(groups).toContainEqual({ id: groupId, title: `${tag} team` });
});

test('addItem with data, then deleteItem', async ({ app, env }) => {
  await app.registerToken('publisher1');
  const tag = uniqueTag('add');
  const result = await app.run(async (tag) => {
    const { Portal, PortalItem } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const item = await portal.user!.addItem({
      item: new PortalItem({ title: `${tag} added`, type: 'Web Map', tags: [tag], snippet: 'Added by the SDK' }),
      data: { operationalLayers: [], version: '2.31' },
    });
    const loaded = new PortalItem({ id: item.id, portal });
    await loaded.load();
    const data = await loaded.fetchData();
    const id = item.id;
    await portal.user!.deleteItem(item);
    const gone = await new PortalItem({ id, portal }).load().then(
      () => 'still there',
      (err: { details?: { httpStatus?: number }; name?: string }) => err.details?.httpStatus ?? err.name,
    );
    return { id, title: loaded.title, owner: loaded.owner, snippet: loaded.snippet, data, gone };
  }, tag);
  expect(result.id).toMatch(/^[0-9a-f]{32}$/);
  expect(result).toMatchObject({ title: `${tag} added`, owner: 'publisher1', snippet: 'Added by the SDK', data: { operationalLayers: [], version: '2.31' } });
  expect(result.gone).not.toBe('still there');
  const after = await env.portal.svc.post(`content/items/${result.id}`, {}, await env.portal.svc.tokenFor('publisher1'));
  expect(after.error?.code).toBe(400);
});
