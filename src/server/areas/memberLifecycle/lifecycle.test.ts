/**
 * Member lifecycle with a clock the test drives: an expiration disables the member at its moment
 * (through the one disable path: tokens end) after a warning event the configured days before; a
 * policy's preview is what its run touches; a run is undone; two runners on one database act once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertCustomRoleMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { MemberLifecycleRunner } from '../../jobs/memberLifecycle.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-23T07:30:00Z');
const clock = {
  t: T0,
  now() {
    return this.t;
  },
};
let svc: TestService;
let admin: string;
const runner = () => new MemberLifecycleRunner(svc.app.portal, { clock });
/** Moves the clock and signs the administrator in again (tokens do not outlive the jump). */
async function moveTo(t: number) {
  clock.t = t;
  admin = await svc.tokenFor('admin');
}
const BASE = () => `portals/${svc.orgId}/memberLifecycle`;
const events = (username: string, operation: string) =>
  svc.db.query<{ username: string | null; data: any }>(
    `SELECT username, data FROM events WHERE source = 'user' AND subject_id = $1 AND operation = $2 ORDER BY seq`,
    [username, operation],
  );
const disabled = async (username: string) =>
  (await svc.db.query<{ disabled: boolean }>('SELECT disabled FROM users WHERE username = $1', [username]))[0].disabled;

beforeAll(async () => {
  svc = await startService({ clock });
});
afterAll(() => svc.close());
beforeEach(async () => {
  clock.t = T0;
  // Everyone active now; each test makes its own members inactive.
  await svc.db.query('UPDATE users SET last_login = $1, disabled = false, expiration = NULL, expiration_warned = NULL', [T0]);
  admin = await svc.tokenFor('admin');
});

describe('expirations', () => {
  it('warns the configured days before, then disables the member at the moment through the disable path', async () => {
    const userToken = await svc.tokenFor('user1');
    const at = T0 + 10 * DAY;
    expect(await svc.post(`${BASE()}/setExpiration`, { usernames: 'user1', expiration: String(at) }, admin)).toEqual({
      results: [{ username: 'user1', status: true }],
    });
    const list = await svc.post(`${BASE()}/expirations`, {}, admin);
    expect(list).toMatchObject({ total: 1, warningDays: 7, expirations: [{ username: 'user1', expiration: at, warned: false }] });

    await moveTo(at - 7 * DAY - 1);
    expect(await runner().runDue()).toEqual({ warned: 0, expired: 0, policies: 0 });
    await moveTo(at - 7 * DAY);
    expect((await runner().runDue()).warned).toBe(1);
    expect(await runner().runDue()).toEqual({ warned: 0, expired: 0, policies: 0 });
    expect(await events('user1', 'expirationWarning')).toEqual([{ username: null, data: { expiration: at } }]);
    expect((await svc.post(`${BASE()}/expirations`, {}, admin)).expirations[0].warned).toBe(true);

    await moveTo(at - 1);
    expect((await runner().runDue()).expired).toBe(0);
    expect(await disabled('user1')).toBe(false);
    await moveTo(at);
    expect((await runner().runDue()).expired).toBe(1);
    expect(await disabled('user1')).toBe(true);
    // The disable path: the member's earlier token is refused, and the event is the one disableUser writes.
    expect((await svc.post('community/self', {}, userToken)).error.code).toBe(498);
    expect((await events('user1', 'disable')).at(-1)).toEqual({
      username: null,
      data: { before: { disabled: false }, after: { disabled: true }, expiration: at },
    });
    expect((await svc.post(`${BASE()}/expirations`, {}, admin)).total).toBe(0);
    await svc.post('community/users/user1/enable', {}, admin);
  });

  it('refuses a past date, one own account, another organization’s member, and callers without the privilege', async () => {
    expect((await svc.post(`${BASE()}/setExpiration`, { usernames: 'user1', expiration: String(T0 - 1) }, admin)).error).toMatchObject({ code: 400 });
    const r = await svc.post(`${BASE()}/setExpiration`, { usernames: 'admin,partner_admin,viewer1', expiration: String(T0 + DAY) }, admin);
    expect(r.results.map((x: any) => [x.username, x.status])).toEqual([
      ['admin', false],
      ['partner_admin', false],
      ['viewer1', true],
    ]);
    expect(r.results[0].error.code).toBe(403);
    expect((await svc.post(`${BASE()}/clearExpiration`, { usernames: 'viewer1' }, admin)).results).toEqual([{ username: 'viewer1', status: true }]);
    expect((await svc.post(`${BASE()}/expirations`, {}, admin)).total).toBe(0);
    const viewer = await svc.tokenFor('viewer1');
    expect((await svc.post(`${BASE()}/setExpiration`, { usernames: 'user1', expiration: String(T0 + DAY) }, viewer)).error.code).toBe(403);
    expect((await svc.post(`portals/${svc.partnerOrgId}/memberLifecycle/expirations`, {}, admin)).error.code).toBe(403);
  });
});

describe('inactivity policies', () => {
  const quiet = (username: string, days: number) => svc.db.query('UPDATE users SET last_login = $2 WHERE username = $1', [username, T0 - days * DAY]);

  it('previews who it would touch, a run touches exactly them, and the run is undone', async () => {
    await quiet('user1', 70);
    await quiet('viewer1', 40);
    await quiet('publisher1', 10);
    await quiet('admin', 400);
    const made = await svc.post(
      `${BASE()}/policies/createPolicy`,
      { title: 'Quiet members', warnAfterDays: '30', actAfterDays: '60', action: 'disable' },
      admin,
    );
    expect(made.policy).toMatchObject({ active: false, nextRun: null });
    const id = made.id as string;
    const preview = await svc.post(`${BASE()}/policies/${id}/preview`, {}, admin);
    expect(preview.counts).toEqual({ warn: 1, act: 1, skipped: 1 });
    expect(preview.warn.map((m: any) => m.username)).toEqual(['viewer1']);
    expect(preview.act.map((m: any) => m.username)).toEqual(['user1']);
    expect(preview.skipped[0]).toMatchObject({ username: 'admin', reason: expect.stringContaining('administrator') });

    // Switched off: nothing runs.
    expect((await runner().runDue()).policies).toBe(0);
    expect((await svc.post(`${BASE()}/policies/${id}/enable`, {}, admin)).policy).toMatchObject({ active: true, nextRun: T0 });
    expect((await runner().runDue()).policies).toBe(1);
    expect(await disabled('user1')).toBe(true);
    expect(await disabled('viewer1')).toBe(false);
    expect(await events('viewer1', 'inactivityWarning')).toHaveLength(1);
    const { runs } = await svc.post(`${BASE()}/policies/${id}/runs`, {}, admin);
    expect(runs).toEqual([expect.objectContaining({ warned: ['viewer1'], acted: ['user1'], undone: null })]);
    // Once a day: the same moment again does nothing, and viewer1 is not warned twice the next day.
    expect((await runner().runDue()).policies).toBe(0);
    clock.t = T0 + DAY;
    admin = await svc.tokenFor('admin');
    expect((await runner().runDue()).policies).toBe(1);
    expect(await events('viewer1', 'inactivityWarning')).toHaveLength(1);

    const undo = await svc.post(`${BASE()}/policies/${id}/runs/${runs[0].id}/undo`, {}, admin);
    expect(undo).toEqual({ success: true, results: [{ username: 'user1', status: true }] });
    expect(await disabled('user1')).toBe(false);
    expect((await events('user1', 'enable')).at(-1)?.username).toBe('admin');
    expect((await svc.post(`${BASE()}/policies/${id}/runs/${runs[0].id}/undo`, {}, admin)).error.code).toBe(400);
    await svc.post(`${BASE()}/policies/${id}/delete`, {}, admin);
  });

  it('moves members to a role and user type, undone back to theirs; refuses a pair the user type does not allow', async () => {
    const refused = await svc.post(
      `${BASE()}/policies/createPolicy`,
      { title: 'Bad', warnAfterDays: '5', actAfterDays: '10', action: 'move', role: 'org_publisher', userLicenseType: 'viewerUT' },
      admin,
    );
    expect(refused.error).toMatchObject({ code: 400 });
    expect(JSON.stringify(refused.error)).toContain('Viewer user type');
    const bad = await svc.post(`${BASE()}/policies/createPolicy`, { title: 'x', warnAfterDays: '10', actAfterDays: '5', action: 'disable' }, admin);
    expect(bad.error.fieldErrors).toHaveProperty('actAfterDays');

    await quiet('publisher1', 100);
    const before = (await svc.db.query<any>(`SELECT role, role_id, user_license_type_id FROM users WHERE username = 'publisher1'`))[0];
    const { id } = await svc.post(
      `${BASE()}/policies/createPolicy`,
      { title: 'To viewers', warnAfterDays: '30', actAfterDays: '90', action: 'move', role: 'iAAAAAAAAAAAAAAA', userLicenseType: 'viewerUT' },
      admin,
    );
    expect(id).toEqual(expect.any(String));
    await svc.post(`${BASE()}/policies/${id}/enable`, {}, admin);
    await runner().runDue();
    const moved = (await svc.db.query<any>(`SELECT role, role_id, user_license_type_id FROM users WHERE username = 'publisher1'`))[0];
    expect(moved).toEqual({ role: 'org_user', role_id: 'iAAAAAAAAAAAAAAA', user_license_type_id: 'viewerUT' });
    const { runs } = await svc.post(`${BASE()}/policies/${id}/runs`, {}, admin);
    await svc.post(`${BASE()}/policies/${id}/runs/${runs[0].id}/undo`, {}, admin);
    expect((await svc.db.query<any>(`SELECT role, role_id, user_license_type_id FROM users WHERE username = 'publisher1'`))[0]).toEqual(before);
    await svc.post(`${BASE()}/policies/${id}/delete`, {}, admin);
  });

  it('two runners on one database: each member disabled once, one run per occurrence', async () => {
    const names: string[] = [];
    for (let i = 0; i < 6; i++) names.push((await insertCustomRoleMember(svc.db, svc.orgId, [], `quiet.${i}.${Date.now()}`)).username);
    await svc.db.query('UPDATE users SET last_login = $2 WHERE username = ANY($1::text[])', [names, T0 - 200 * DAY]);
    await svc.post(`${BASE()}/setExpiration`, { usernames: 'viewer1', expiration: String(T0 + 1000) }, admin);
    const { id } = await svc.post(`${BASE()}/policies/createPolicy`, { title: 'Race', warnAfterDays: '100', actAfterDays: '150', action: 'disable' }, admin);
    await svc.post(`${BASE()}/policies/${id}/enable`, {}, admin);
    clock.t = T0 + 1000;
    const [a, b] = await Promise.all([runner().runDue(), runner().runDue()]);
    expect(a.policies + b.policies).toBe(1);
    expect(a.expired + b.expired).toBe(1);
    for (const name of names) expect(await events(name, 'disable')).toHaveLength(1);
    expect(await events('viewer1', 'disable')).toHaveLength(1);
    expect(await svc.db.query('SELECT id FROM inactivity_policy_runs WHERE policy_id = $1', [id])).toHaveLength(1);
    await svc.post(`${BASE()}/policies/${id}/delete`, {}, admin);
    expect((await svc.post(`${BASE()}/policies/${id}`, {}, admin)).error.code).toBe(400);
  });
});
