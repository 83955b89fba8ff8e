/**
 * Portal.load() from another origin (anonymous, and signed in: requests with credentials, so the
 * portal must answer CORS with the origin and Allow-Credentials), the portal-wide queries with
 * paging (queryItems, queryGroups, queryUsers through nextQueryParams) and fetchBasemaps() of a
 * fresh portal.
 */
import { expect, test } from './fixtures.ts';
import { addItem, createGroup, shareItem, uniqueTag } from './support/data.ts';

test('Portal.load() anonymously reads the organization from another origin', async ({ app }) => {
  const portal = await app.run(async () => {
    const portal = new window.sdk.Portal({ authMode: 'anonymous' });
    await portal.load();
    return { loaded: portal.loaded, restUrl: portal.restUrl, name: portal.name, user: portal.user };
  });
  expect(portal).toEqual({
    loaded: true,
    restUrl: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/sharing\/rest$/),
    name: 'Demo Organization',
    user: null,
  });
});

test('Portal.load() signed in, with credentials, from another origin', async ({ app }) => {
  await app.registerToken('admin');
  const portal = await app.run(async () => {
    const portal = new window.sdk.Portal({ authMode: 'immediate' });
    await portal.load();
    return { name: portal.name, urlKey: portal.urlKey, username: portal.user?.username, role: portal.user?.role, isOrganization: portal.isOrganization };
  });
  expect(portal).toEqual({ name: 'Demo Organization', urlKey: 'demo', username: 'admin', role: 'org_admin', isOrganization: true });
});

test('portal.queryItems pages through the results with nextQueryParams', async ({ app, env }) => {
  const tag = uniqueTag('paging');
  for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) {
    const id = await addItem(env.portal.svc, 'publisher1', { title: `${tag} ${title}`, type: 'Web Map', tags: tag, text: '{}' });
    await shareItem(env.portal.svc, 'publisher1', id, { org: 'true' });
  }
  await app.registerToken('user1');
  const pages = await app.run(async (tag) => {
    const { Portal, PortalQueryParams } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const pages: { total: number; titles: string[]; nextStart: number | undefined }[] = [];
    let params: InstanceType<typeof PortalQueryParams> | null | undefined = new PortalQueryParams({
      query: `tags:"${tag}"`,
      num: 2,
      sortField: 'title',
      sortOrder: 'asc',
    });
    while (params && params.start !== -1 && pages.length < 5) {
      const result = await portal.queryItems(params);
      pages.push({ total: result.total, titles: result.results.map((item) => item.title ?? ''), nextStart: result.nextQueryParams?.start });
      params = result.nextQueryParams;
    }
    return pages;
  }, tag);
  expect(pages).toEqual([
    { total: 5, titles: [`${tag} Alpha`, `${tag} Bravo`], nextStart: 3 },
    { total: 5, titles: [`${tag} Charlie`, `${tag} Delta`], nextStart: 5 },
    { total: 5, titles: [`${tag} Echo`], nextStart: -1 },
  ]);
});

test('portal.queryGroups pages through groups', async ({ app, env }) => {
  const tag = uniqueTag('groups');
  for (const title of ['One', 'Three', 'Two']) await createGroup(env.portal.svc, 'admin', `${tag} ${title}`, tag);
  await app.registerToken('admin');
  const pages = await app.run(async (tag) => {
    const { Portal, PortalQueryParams } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const first = await portal.queryGroups(new PortalQueryParams({ query: `tags:"${tag}"`, num: 2, sortField: 'title', sortOrder: 'asc' }));
    const second = await portal.queryGroups(first.nextQueryParams!);
    return [first, second].map((r) => ({
      total: r.total,
      titles: r.results.map((g) => g.title),
      owner: r.results[0]?.owner,
      nextStart: r.nextQueryParams?.start,
    }));
  }, tag);
  expect(pages).toEqual([
    { total: 3, titles: [`${tag} One`, `${tag} Three`], owner: 'admin', nextStart: 3 },
    { total: 3, titles: [`${tag} Two`], owner: 'admin', nextStart: -1 },
  ]);
});

test('portal.queryUsers pages through the organization members (community/users)', async ({ app }) => {
  await app.registerToken('admin');
  const pages = await app.run(async () => {
    const { Portal, PortalQueryParams } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const first = await portal.queryUsers(new PortalQueryParams({ query: `orgid:${portal.id}`, num: 3, sortField: 'username', sortOrder: 'asc' }));
    const second = await portal.queryUsers(first.nextQueryParams!);
    return [first, second].map((r) => ({ total: r.total, usernames: r.results.map((u) => u.username), nextStart: r.nextQueryParams?.start }));
  });
  expect(pages).toEqual([
    { total: 4, usernames: ['admin', 'publisher1', 'user1'], nextStart: 4 },
    { total: 4, usernames: ['viewer1'], nextStart: -1 },
  ]);
});

test('portal.fetchBasemaps() of a fresh portal is empty, without error, even with web maps in a group', async ({ app, env }) => {
  // A group holding a web map: a basemap query that searched an unrelated group would return it.
  const tag = uniqueTag('basemaps');
  const groupId = await createGroup(env.portal.svc, 'admin', `${tag} maps`, tag);
  const id = await addItem(env.portal.svc, 'admin', { title: `${tag} map`, type: 'Web Map', tags: tag, text: '{}' });
  await shareItem(env.portal.svc, 'admin', id, { groups: groupId });
  await app.registerToken('admin');
  const count = await app.run(async () => {
    const portal = new window.sdk.Portal({ authMode: 'immediate' });
    await portal.load();
    return (await portal.fetchBasemaps()).length;
  });
  expect(count).toBe(0);
});

test("portal.fetchBasemaps() shows the Web Maps of the group the organization's basemapGalleryGroupQuery names", async ({ app, env }) => {
  const svc = env.portal.svc;
  const tag = uniqueTag('gallery');
  const groupId = await createGroup(svc, 'admin', `${tag} basemaps`, tag);
  const id = await addItem(svc, 'admin', { title: `${tag} streets`, type: 'Web Map', tags: tag, text: '{}' });
  await shareItem(svc, 'admin', id, { groups: groupId });
  // Another group with a Web Map, which must not show: the query names one group by id.
  const otherGroup = await createGroup(svc, 'admin', `${tag} other`, tag);
  await shareItem(svc, 'admin', await addItem(svc, 'admin', { title: `${tag} other map`, type: 'Web Map', tags: tag, text: '{}' }), { groups: otherGroup });
  const admin = await svc.tokenFor('admin');
  const setGallery = async (query: string) =>
    expect(await svc.post(`portals/${svc.orgId}/update`, { basemapGalleryGroupQuery: query }, admin)).toEqual({ success: true });
  await setGallery(`id:${groupId}`);
  try {
    await app.registerToken('admin');
    const basemaps = await app.run(async () => {
      const portal = new window.sdk.Portal({ authMode: 'immediate' });
      await portal.load();
      return (await portal.fetchBasemaps()).map((basemap) => basemap.portalItem?.title);
    });
    expect(basemaps).toEqual([`${tag} streets`]);
  } finally {
    // The worker's portal is shared by the tests after this one: back to no gallery.
    await setGallery('');
  }
});
