/**
 * Member operations with Esri's client where it has the call (rest-js updateUser, searchUsers) and
 * raw HTTP through its request() where it does not (removeUsers, the local member filters), over real
 * HTTP against the running local portal.
 */
import { getUser, searchUsers, updateUser } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMember } from '../support/members.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';
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

describe('members through rest-js', () => {
  it('updateUser: a member updates their own profile (the username from the session)', async () => {
    expect(await updateUser({ authentication: user1, user: { description: 'Field crew lead', tags: ['field', 'crew'] } })).toEqual({
      success: true,
      username: 'user1',
    });
    // The identity manager keeps the record it read at sign-in: read it again.
    const me = await getUser({ username: 'user1', authentication: user1 });
    expect(me.description).toBe('Field crew lead');
    expect(me.tags).toEqual(['field', 'crew']);
  });

  it('updateUser: an administrator names the member; another member is refused with 403', async () => {
    expect(await updateUser({ authentication: admin, user: { username: 'publisher1', fullName: 'Publisher One' } })).toEqual({
      success: true,
      username: 'publisher1',
    });
    const err = await rejection(updateUser({ authentication: user1, user: { username: 'publisher1', description: 'not mine' } }));
    expect(err.response.error.code).toBe(403);
  });

  it('searchUsers with the local filter fields in q', async () => {
    const result = await searchUsers({ authentication: admin, q: 'username:publisher1 AND disabled:false', num: 10 });
    expect(result.results.map((u) => u.username)).toEqual(['publisher1']);
    expect(result.total).toBe(1);
  });

  it('removeUsers through request(): the documented notRemoved', async () => {
    await insertMember(svc.db, 'leaving.rest', svc.orgId);
    const body = await request(`${portal}/portals/self/removeUsers`, { authentication: admin, params: { users: ['leaving.rest', 'nobody.here'] } });
    expect(body.notRemoved).toEqual(['nobody.here']);
    const err = await rejection(request(`${portal}/portals/self/removeUsers`, { authentication: user1, params: { users: ['publisher1'] } }));
    expect(err.response.error.code).toBe(403);
  });
});
