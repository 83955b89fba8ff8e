/**
 * Reassign Group (`community/groups/<id>/reassign`, ArcGIS REST "Reassign Group") over real HTTP:
 * rest-js 4.10 has no call for it, so the request is raw form-encoded POST as the documentation
 * shows it (targetUsername, f=json); the group is made and read back with rest-js's createGroup and
 * getGroup.
 */
import { createGroup, getGroup, getGroupUsers } from '@esri/arcgis-rest-portal';
import type { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInDemo } from '../support/rest-js.ts';
import { startService, type TestService } from '../support/service.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, user1] = await signInDemo(portal, 'admin', 'user1');
});
afterAll(() => svc.close());

/** `as`: the caller, with a token of the service's own (rest-js's session tokens are bound to its referer). */
async function reassign(groupId: string, targetUsername: string, as: string) {
  const res = await fetch(`${portal}/community/groups/${groupId}/reassign`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ targetUsername, f: 'json', token: await svc.tokenFor(as) }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('Reassign Group over HTTP', () => {
  it('answers {success, groupId}; the group reads back with the new owner, the old one a member', async () => {
    const { group } = await createGroup({ authentication: user1, group: { title: 'Conformance reassign', access: 'org', tags: [] } });
    expect(await reassign(group.id, 'publisher1', 'admin')).toEqual({ success: true, groupId: group.id });
    expect((await getGroup(group.id, { authentication: admin })).owner).toBe('publisher1');
    const users = await getGroupUsers(group.id, { authentication: admin });
    expect(users.owner).toBe('publisher1');
    expect(users.users).toContain('user1');
  });

  it('refuses a caller without the privilege and an unknown target in the error envelope', async () => {
    const { group } = await createGroup({ authentication: user1, group: { title: 'Conformance refused', access: 'org', tags: [] } });
    const refused = await reassign(group.id, 'publisher1', 'user1');
    expect(refused.error).toMatchObject({ code: 403, details: [expect.stringContaining('portal:admin:reassignGroups')] });
    const unknown = await reassign(group.id, 'nobody.here', 'admin');
    expect(unknown.error).toMatchObject({ code: 400, message: "User 'nobody.here' does not exist or is inaccessible." });
    expect((await getGroup(group.id, { authentication: admin })).owner).toBe('user1');
  });
});
