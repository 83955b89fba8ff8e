/**
 * Member search filters and sorts: status, user type, last sign-in and creation dates, on
 * `portals/<orgId>/users`, `portals/self/users/search` and `community/users` (local parameters and
 * `q` fields), sorted by each, with exact totals across pages; bad values answer in the envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let admin: string;
let viewer: string;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
/** Twelve members of their own: `mf.NN`, created a day apart, every third never signed in, every fourth disabled. */
const names: string[] = [];

beforeAll(async () => {
  svc = await startService();
  admin = await svc.tokenFor('admin');
  viewer = await svc.tokenFor('viewer1');
  for (let i = 0; i < 12; i++) {
    const username = `mf.${String(i).padStart(2, '0')}`;
    await insertMember(svc.db, username, svc.orgId);
    await svc.db.query('UPDATE users SET created = $2, last_login = $3, disabled = $4, user_license_type_id = $5 WHERE username = $1', [
      username,
      T0 + i * DAY,
      i % 3 === 0 ? -1 : T0 + (20 + i) * DAY,
      i % 4 === 0,
      i % 2 === 0 ? 'contributorUT' : 'creatorUT',
    ]);
    names.push(username);
  }
});
afterAll(() => svc.close());

const list = (params: Record<string, string>, token = admin) => svc.post(`portals/${svc.orgId}/users`, { num: '100', username: 'mf.', ...params }, token);
const usernames = (b: { users?: { username: string }[]; results?: { username: string }[] }) => (b.users ?? b.results ?? []).map((u) => u.username);
const expected = (keep: (i: number) => boolean) => names.filter((_, i) => keep(i));

describe('member filters', () => {
  it('filters by status, user type, last sign-in and creation dates, each alone and together', async () => {
    expect(usernames(await list({ disabled: 'true' }))).toEqual(expected((i) => i % 4 === 0));
    expect(usernames(await list({ disabled: 'false' }))).toEqual(expected((i) => i % 4 !== 0));
    expect(usernames(await list({ userLicenseType: 'contributorUT' }))).toEqual(expected((i) => i % 2 === 0));
    // Never signed in (-1) is before any date.
    expect(usernames(await list({ lastLoginBefore: String(T0 + 25 * DAY) }))).toEqual(expected((i) => i % 3 === 0 || 20 + i < 25));
    expect(usernames(await list({ lastLoginAfter: String(T0 + 25 * DAY) }))).toEqual(expected((i) => i % 3 !== 0 && 20 + i > 25));
    expect(usernames(await list({ createdAfter: String(T0 + 2 * DAY), createdBefore: String(T0 + 6 * DAY) }))).toEqual(expected((i) => i > 2 && i < 6));
    expect(usernames(await list({ disabled: 'false', userLicenseType: 'creatorUT', lastLoginAfter: String(T0) }))).toEqual(
      expected((i) => i % 4 !== 0 && i % 2 === 1 && i % 3 !== 0),
    );
  });

  it('sorts by last sign-in, creation date, user type and status in either order (ties by username)', async () => {
    const byLogin = usernames(await list({ sortField: 'lastlogin', sortOrder: 'desc' }));
    expect(byLogin.slice(0, 3)).toEqual(['mf.11', 'mf.10', 'mf.08']);
    expect(byLogin.slice(-4)).toEqual(['mf.09', 'mf.06', 'mf.03', 'mf.00']);
    expect(usernames(await list({ sortField: 'created', sortOrder: 'asc' }))).toEqual(names);
    const byType = usernames(await list({ sortField: 'userlicensetype', sortOrder: 'asc' }));
    expect(byType).toEqual([...expected((i) => i % 2 === 0), ...expected((i) => i % 2 === 1)]);
    const byStatus = usernames(await list({ sortField: 'status', sortOrder: 'desc' }));
    expect(byStatus.slice(0, 3)).toEqual(['mf.08', 'mf.04', 'mf.00']);
  });

  it('pages a filtered, sorted list with the exact total', async () => {
    const all = expected((i) => i % 4 !== 0);
    const seen: string[] = [];
    for (let start = 1; start > 0;) {
      const page = await list({ disabled: 'false', sortField: 'created', num: '3', start: String(start) });
      expect(page.total).toBe(all.length);
      seen.push(...usernames(page));
      start = page.nextStart;
    }
    expect(seen).toEqual(all);
  });

  it('filters searches the same way, by parameter and by q fields', async () => {
    const search = await svc.post('portals/self/users/search', { q: 'username:mf.', disabled: 'true', num: '100', sortField: 'username' }, admin);
    expect({ total: search.total, names: usernames(search) }).toEqual({ total: 3, names: expected((i) => i % 4 === 0) });
    const q = `username:mf. AND disabled:false AND userlicensetype:contributorUT AND created:[${T0 + DAY} TO ${T0 + 8 * DAY}]`;
    const byQ = await svc.post('community/users', { q, num: '100', sortField: 'created', sortOrder: 'desc' }, admin);
    expect(usernames(byQ)).toEqual(expected((i) => i % 4 !== 0 && i % 2 === 0 && i >= 1 && i <= 8).reverse());
    const never = await svc.post('portals/self/users/search', { q: 'username:mf. AND lastlogin:[* TO 0]', num: '100' }, admin);
    expect(usernames(never)).toEqual(expected((i) => i % 3 === 0));
  });

  it('a member who may view the organization filters what they see (status, type and dates are shown to them)', async () => {
    const b = await list({ disabled: 'true' }, viewer);
    expect(usernames(b)).toEqual(expected((i) => i % 4 === 0));
    expect(b.users.every((u: { email?: string }) => u.email === undefined)).toBe(true);
  });

  it('refuses bad filter values and sort fields, naming them, in the error envelope', async () => {
    const bad = await list({ disabled: 'maybe', userLicenseType: 'superUT', lastLoginBefore: 'yesterday', sortField: 'shoesize' });
    expect(bad.error.code).toBe(400);
    expect(Object.keys(bad.error.fieldErrors).sort()).toEqual(['disabled', 'lastLoginBefore', 'sortField', 'userLicenseType.0']);
  });
});
