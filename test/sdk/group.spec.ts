/**
 * PortalGroup as an app uses it: the items shared to a group (content/groups/<id>/search, paged)
 * and its members.
 */
import { expect, test } from './fixtures.ts';
import { addItem, addToGroup, createGroup, shareItem, uniqueTag } from './support/data.ts';

test('PortalGroup.queryItems pages through the group content; fetchMembers lists owner, admins and users', async ({ app, env }) => {
  const { svc } = env.portal;
  const tag = uniqueTag('group');
  const groupId = await createGroup(svc, 'admin', `${tag} shared maps`, tag);
  await addToGroup(svc, groupId, ['publisher1', 'user1'], 'admin');
  for (const title of ['Amber', 'Birch', 'Cedar']) {
    const id = await addItem(svc, 'publisher1', { title: `${tag} ${title}`, type: 'Web Map', tags: tag, text: '{}' });
    await shareItem(svc, 'publisher1', id, { groups: groupId });
  }
  // An item with the same tag outside the group: the group query must not return it.
  await addItem(svc, 'publisher1', { title: `${tag} Not shared`, type: 'Web Map', tags: tag, text: '{}' });

  await app.registerToken('user1');
  const result = await app.run(async (groupId) => {
    const { Portal, PortalGroup, PortalQueryParams } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const group = new PortalGroup({ id: groupId, portal });
    const first = await group.queryItems(new PortalQueryParams({ num: 2, sortField: 'title', sortOrder: 'asc' }));
    const second = await group.queryItems(first.nextQueryParams!);
    const members = await group.fetchMembers();
    return {
      pages: [first, second].map((r) => ({ total: r.total, titles: r.results.map((i) => i.title), nextStart: r.nextQueryParams?.start })),
      members: { owner: members.owner, admins: members.admins, users: [...members.users].sort() },
    };
  }, groupId);
  expect(result.pages).toEqual([
    { total: 3, titles: [`${tag} Amber`, `${tag} Birch`], nextStart: 3 },
    { total: 3, titles: [`${tag} Cedar`], nextStart: -1 },
  ]);
  expect(result.members).toEqual({ owner: 'admin', admins: ['admin'], users: ['publisher1', 'user1'] });
});
