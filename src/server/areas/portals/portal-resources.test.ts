/**
 * The portal resources the Maps SDK reads besides portals/self (issue 28, items 4 and 7):
 * `portals/regions`, `portals/languages`, `portals/<orgId>/settings`, and the basemap gallery
 * group queries portals/self answers for `Portal.fetchBasemaps()`.
 */
import { GEOMETRY_SERVER_PATH } from './helperServices.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { MAX_GALLERY_QUERY_CHARS } from '../../../shared/contract/portals.ts';
import { NO_GALLERY_GROUP_QUERY } from './basemapGallery.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function get(path: string, token?: string, query: Record<string, string> = {}) {
  const search = new URLSearchParams({ f: 'json', ...query, ...(token ? { token } : {}) });
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${search}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const updateOrg = (params: Record<string, string>, token = tokens.admin) => svc.post(`portals/${svc.orgId}/update`, params, token);

/** What the SDK does with a gallery query: the groups community/groups finds for it (admin sees every group of the organization). */
const groupsFound = async (q: string, token = tokens.admin) => get('community/groups', token, { q, num: '10', start: '1' });

describe('portals/regions', () => {
  it('answers anyone with the documented bare array of {name, region, localizedName}, World first', async () => {
    const anonymous = await get('portals/regions');
    expect(Array.isArray(anonymous)).toBe(true);
    expect(anonymous[0]).toEqual({ name: 'World', region: 'WO', localizedName: 'World' });
    for (const entry of anonymous) {
      expect(Object.keys(entry).sort()).toEqual(['localizedName', 'name', 'region']);
      expect(entry.region).toMatch(/^[A-Z]{2}$/);
    }
    expect(anonymous).toContainEqual({ name: 'Austria', region: 'AT', localizedName: 'Austria' });
    expect(new Set(anonymous.map((r: { region: string }) => r.region)).size).toBe(anonymous.length);
    // Not read as an organization id, and the same for a member.
    expect(await get('portals/regions', tokens.user1)).toEqual(anonymous);
  });

  it('localizes the names in the culture asked for, English for an unknown one', async () => {
    const de = await get('portals/regions', undefined, { culture: 'de' });
    expect(de[0]).toEqual({ name: 'World', region: 'WO', localizedName: 'Welt' });
    expect(de).toContainEqual({ name: 'Austria', region: 'AT', localizedName: 'Österreich' });
    const ptBr = await get('portals/regions', undefined, { culture: 'pt-BR' });
    expect(ptBr).toContainEqual({ name: 'Austria', region: 'AT', localizedName: 'Áustria' });
    for (const culture of ['not a culture', 'qq']) expect((await get('portals/regions', undefined, { culture }))[0].localizedName).toBe('World');
  });

  it('refuses an over-long culture, naming the parameter', async () => {
    const body = await get('portals/regions', undefined, { culture: 'x'.repeat(36) });
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.details.join(' ')).toMatch(/'culture'/);
  });
});

describe('portals/languages', () => {
  it('answers anyone with the documented bare array of {language, culture, localizedName}', async () => {
    const body = await get('portals/languages');
    expect(Array.isArray(body)).toBe(true);
    expect(body).toContainEqual({ language: 'English', culture: 'en', localizedName: 'English' });
    expect(body).toContainEqual({ language: 'Simplified Chinese', culture: 'zh-CN', localizedName: '简体中文' });
    for (const entry of body) {
      expect(Object.keys(entry).sort()).toEqual(['culture', 'language', 'localizedName']);
      expect(() => Intl.getCanonicalLocales(entry.culture)).not.toThrow();
    }
    expect(new Set(body.map((l: { culture: string }) => l.culture)).size).toBe(body.length);
    expect(await get('portals/languages', tokens.admin)).toEqual(body);
  });
});

describe('portals/<orgId>/settings', () => {
  const settings = {
    allowedRedirectUris: [],
    helperServices: { geometry: { url: expect.stringMatching(new RegExp(`^https?://[^/]+${GEOMETRY_SERVER_PATH}$`)) } },
    culture: 'en',
  };

  it('answers anonymous callers with the primary organization, members with their own', async () => {
    expect(await get('portals/self/settings')).toEqual(settings);
    expect(await get('portals/self/settings', tokens.user1)).toEqual(settings);
    expect(await get(`portals/${svc.orgId}/settings`, tokens.user1)).toEqual(settings);
    expect(await get('portals/self/settings', tokens.partner_admin)).toEqual(settings);
    expect(await svc.post('portals/self/settings', {}, tokens.admin)).toEqual(settings);
  });

  it('answers an unknown organization with "does not exist or is inaccessible"', async () => {
    const body = await get('portals/0123456789ABCDEF/settings', tokens.admin);
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.message).toMatch(/does not exist or is inaccessible/);
  });
});

describe('the basemap gallery of portals/self', () => {
  it('on a fresh portal names a query that finds no group, where no query finds every group', async () => {
    // An unrelated group holding a Web Map: what the SDK showed as basemaps when it searched without q.
    const { group } = await svc.post('community/createGroup', { title: 'Field crew', access: 'public', tags: 'field' }, tokens.admin);
    const map = await svc.post('content/users/admin/addItem', { title: 'Crew routes', type: 'Web Map', text: '{}' }, tokens.admin);
    await svc.post(`content/users/admin/items/${map.id}/share`, { everyone: 'true', groups: group.id }, tokens.admin);
    for (const token of [undefined, tokens.admin]) {
      const self = await get('portals/self', token);
      expect(self).toMatchObject({
        basemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
        vectorBasemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
        useVectorBasemaps: false,
        devBasemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
      });
    }
    // What the SDK sent before: no q, and the first of all these groups became the gallery.
    expect((await get('community/groups', undefined, { num: '10', start: '1' })).results.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect(await groupsFound(NO_GALLERY_GROUP_QUERY)).toMatchObject({ total: 0, results: [] });
    expect(await groupsFound(NO_GALLERY_GROUP_QUERY, tokens.partner_admin)).toMatchObject({ total: 0, results: [] });
  });

  it("a configured query finds the organization's gallery group and its Web Maps", async () => {
    const { group } = await svc.post('community/createGroup', { title: 'Basemaps', access: 'org', tags: 'basemaps' }, tokens.admin);
    const map = await svc.post('content/users/admin/addItem', { title: 'Streets (offline)', type: 'Web Map', text: '{}' }, tokens.admin);
    // Shared with the organization too: members see the gallery's maps without joining the group.
    expect(await svc.post(`content/users/admin/items/${map.id}/share`, { org: 'true', groups: group.id }, tokens.admin)).toMatchObject({ notSharedWith: [] });

    for (const query of ['title:"Basemaps" AND owner:admin', `id:${group.id}`]) {
      expect(await updateOrg({ basemapGalleryGroupQuery: query })).toEqual({ success: true });
      const self = await get('portals/self', tokens.user1);
      expect(self).toMatchObject({
        basemapGalleryGroupQuery: query,
        devBasemapGalleryGroupQuery: query,
        vectorBasemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
      });
      const found = await groupsFound(self.basemapGalleryGroupQuery, tokens.user1);
      expect(found.total).toBe(1);
      expect(found.results[0].id).toBe(group.id);
      const maps = await get(`content/groups/${group.id}/search`, tokens.user1, { q: 'type:"Web Map" -type:"Web Application"', num: '100' });
      expect(maps.results.map((i: { title: string }) => i.title)).toEqual(['Streets (offline)']);
    }

    // The vector gallery, when chosen, is the one the SDK (and an app with an API key) reads.
    expect(await updateOrg({ vectorBasemapGalleryGroupQuery: `id:${group.id}`, useVectorBasemaps: 'true' })).toEqual({ success: true });
    expect(await get('portals/self')).toMatchObject({
      useVectorBasemaps: true,
      vectorBasemapGalleryGroupQuery: `id:${group.id}`,
      devBasemapGalleryGroupQuery: `id:${group.id}`,
    });

    // Another organization's portals/self keeps its own (unset) gallery.
    expect(await get('portals/self', tokens.partner_admin)).toMatchObject({ basemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY, useVectorBasemaps: false });

    // Empty text clears a query: back to the one no group matches.
    expect(await updateOrg({ basemapGalleryGroupQuery: '', vectorBasemapGalleryGroupQuery: '', useVectorBasemaps: 'false' })).toEqual({ success: true });
    expect(await get('portals/self')).toMatchObject({
      basemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
      vectorBasemapGalleryGroupQuery: NO_GALLERY_GROUP_QUERY,
      useVectorBasemaps: false,
    });
  });

  it(`refuses a query longer than ${MAX_GALLERY_QUERY_CHARS} characters, naming the field, and stores nothing`, async () => {
    for (const field of ['basemapGalleryGroupQuery', 'vectorBasemapGalleryGroupQuery']) {
      const body = await updateOrg({ [field]: `title:${'x'.repeat(MAX_GALLERY_QUERY_CHARS)}` });
      expect(body.error).toMatchObject({ code: 400 });
      expect(body.error.details.join(' ')).toMatch(new RegExp(`'${field}'`));
      expect(body.error.fieldErrors?.[field]).toMatch(new RegExp(`at most ${MAX_GALLERY_QUERY_CHARS} characters`));
      expect((await get('portals/self'))[field]).toBe(NO_GALLERY_GROUP_QUERY);
    }
    const longest = `title:${'x'.repeat(MAX_GALLERY_QUERY_CHARS - 'title:'.length)}`;
    expect(await updateOrg({ basemapGalleryGroupQuery: longest })).toEqual({ success: true });
    expect((await get('portals/self')).basemapGalleryGroupQuery).toBe(longest);
    expect(await updateOrg({ basemapGalleryGroupQuery: '' })).toEqual({ success: true });
  });

  it('refuses a useVectorBasemaps that is not true or false, naming the field', async () => {
    const body = await updateOrg({ useVectorBasemaps: 'sometimes' });
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.details.join(' ')).toMatch(/'useVectorBasemaps'/);
    expect((await get('portals/self')).useVectorBasemaps).toBe(false);
  });

  it('is an organization setting: members without portal:admin:manageWebsite and other organizations cannot change it', async () => {
    expect((await updateOrg({ basemapGalleryGroupQuery: 'title:Mine' }, tokens.user1)).error).toMatchObject({ code: 403 });
    expect((await updateOrg({ basemapGalleryGroupQuery: 'title:Theirs' }, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await get('portals/self')).basemapGalleryGroupQuery).toBe(NO_GALLERY_GROUP_QUERY);
  });
});
