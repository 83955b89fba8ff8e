/**
 * Group Content (`content/groups/<id>`, rest-js getGroupContent) and group thumbnails (createGroup
 * and updateGroup with a `thumbnail` file, served at `community/groups/<id>/info/<file>`): one
 * organization group walked through with its owner, a colleague who is no member, another
 * organization and an anonymous caller.
 */
import { createGroup, createItem, getGroup, getGroupContent, removeGroup, updateGroup } from '@esri/arcgis-rest-portal';
import type { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection, signInDemo } from '../support/rest-js.ts';
import { startService, type TestService } from '../support/service.ts';

let svc: TestService;
let portal: string;
let user1: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;
let admin: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;
let token: string;
let groupId: string;
let logo: Buffer;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [user1, publisher, admin, partner] = await signInDemo(portal, 'user1', 'publisher1', 'admin', 'partner_admin');
  token = await svc.tokenFor('user1');
  logo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
});
afterAll(() => svc.close());

const info = (file: string, auth?: string) => fetch(`${portal}/community/groups/${groupId}/info/${file}${auth ? `?token=${auth}` : ''}`);
const share = (id: string, groups: string) =>
  fetch(`${portal}/content/users/user1/items/${id}/share`, { method: 'POST', body: new URLSearchParams({ groups, f: 'json', token }) });

describe('group thumbnails', () => {
  it('createGroup takes a thumbnail file; the group names it and serves it to those who see the group', async () => {
    const made = await createGroup({
      group: { title: 'Field crews', access: 'org', tags: ['crews'] },
      // rest-js types `thumbnail` as a string; the file goes as a parameter, multipart as rest-js sends any Blob.
      params: { thumbnail: new File([new Uint8Array(logo)], 'crew logo.png') },
      authentication: user1,
    });
    groupId = made.group.id;
    expect(made.group.thumbnail).toBe('crew_logo.png');
    expect((await getGroup(groupId, { authentication: publisher })).thumbnail).toBe('crew_logo.png');
    const res = await info('crew_logo.png', token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(logo)).toBe(true);
    // Not to an anonymous caller (an organization group), nor to another organization: HTTP 404 with the envelope.
    const anonymous = await info('crew_logo.png');
    expect(anonymous.status).toBe(404);
    expect(((await anonymous.json()) as { error: { code: number } }).error.code).toBe(404);
    expect((await info('crew_logo.png', await svc.tokenFor('partner_admin'))).status).toBe(404);
    // A file the group does not have.
    expect((await info('other.png', token)).status).toBe(404);
  });

  it('update replaces the thumbnail (the old file is gone) and refuses what is not an image; a bad image leaves no new group', async () => {
    const sky = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#88ccff' } })
      .jpeg()
      .toBuffer();
    await expect(updateGroup({ group: { id: groupId, thumbnail: new File([new Uint8Array(sky)], 'sky.jpeg') }, authentication: user1 })).resolves.toMatchObject(
      {
        success: true,
      },
    );
    expect((await getGroup(groupId, { authentication: user1 })).thumbnail).toBe('sky.jpg');
    expect((await info('sky.jpg', token)).headers.get('content-type')).toBe('image/jpeg');
    expect((await info('crew_logo.png', token)).status).toBe(404);
    const notImage = await rejection(updateGroup({ group: { id: groupId, thumbnail: new File(['not an image'], 'x.png') }, authentication: user1 }));
    expect(notImage.response.error.fieldErrors).toHaveProperty('thumbnail');
    // Another member may not change it.
    expect(
      (await rejection(updateGroup({ group: { id: groupId, thumbnail: new File([new Uint8Array(logo)], 'y.png') }, authentication: publisher }))).response.error
        .code,
    ).toBe(403);
    const bad = await rejection(
      createGroup({ group: { title: 'Never made', access: 'private' }, params: { thumbnail: new File(['text'], 'bad.png') }, authentication: user1 }),
    );
    expect(bad.response.error.code).toBe(400);
    expect(await svc.db.query("SELECT 1 FROM groups WHERE title = 'Never made'")).toEqual([]);
  });
});

describe('group content', () => {
  it('lists the items shared to the group, paged, and only those the caller may see', async () => {
    const privateItem = (await createItem({ item: { title: 'Crew roster', type: 'CSV' }, text: 'a,b', authentication: user1 })).id;
    const orgItem = (await createItem({ item: { title: 'Crew map', type: 'Web Map' }, text: '{}', authentication: user1 })).id;
    await fetch(`${portal}/content/users/user1/items/${orgItem}/share`, { method: 'POST', body: new URLSearchParams({ org: 'true', f: 'json', token }) });
    for (const id of [privateItem, orgItem]) expect(((await (await share(id, groupId)).json()) as { notSharedWith: string[] }).notSharedWith).toEqual([]);

    // The owner, a member: both.
    const mine = await getGroupContent(groupId, { paging: { start: 1, num: 100 }, authentication: user1 });
    expect(mine).toMatchObject({ total: 2, start: 1, num: 2, nextStart: -1 });
    expect(mine.items.map((i) => i.id).sort()).toEqual([orgItem, privateItem].sort());
    // Paged one at a time.
    const first = await getGroupContent(groupId, { paging: { start: 1, num: 1 }, authentication: user1 });
    expect(first).toMatchObject({ total: 2, num: 1, nextStart: 2 });
    const second = await getGroupContent(groupId, { paging: { start: 2, num: 1 }, authentication: user1 });
    expect(second.items[0].id).not.toBe(first.items[0].id);
    // A colleague who is no member sees the organization group, and only the item shared with the organization.
    const colleague = await getGroupContent(groupId, { paging: { start: 1, num: 100 }, authentication: publisher });
    expect(colleague).toMatchObject({ total: 1, nextStart: -1 });
    expect(colleague.items.map((i) => i.id)).toEqual([orgItem]);
    // The administrator sees both; another organization nothing of the group.
    expect((await getGroupContent(groupId, { paging: { start: 1, num: 100 }, authentication: admin })).total).toBe(2);
    expect((await rejection(getGroupContent(groupId, { paging: { start: 1, num: 100 }, authentication: partner }))).response.error.code).toBe(400);
  });

  it('deleting the group removes its thumbnail file', async () => {
    const [{ blob_key }] = await svc.db.query<{ blob_key: string }>('SELECT blob_key FROM group_info_files WHERE group_id = $1', [groupId]);
    await expect(svc.app.portal.blobs.open(blob_key)).resolves.toBeDefined();
    await removeGroup({ id: groupId, authentication: user1 });
    await expect(svc.app.portal.blobs.open(blob_key)).rejects.toThrow();
  });
});
