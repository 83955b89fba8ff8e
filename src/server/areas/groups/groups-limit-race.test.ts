/**
 * The 512-groups-per-member limit under concurrency: a member at 511 groups, added to (or joining,
 * or creating) two groups at the same instant, ends in exactly 512. Each request holds only its own
 * group's lock, so without the member's row lock both would count 511 on PostgreSQL and both
 * insert. (The embedded database runs one write transaction at a time; there the test checks the
 * same outcome.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let racerId = '';
const ROUNDS = 6;

beforeAll(async () => {
  svc = await startService();
  racerId = randomUUID().replaceAll('-', '');
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, created, modified)
     SELECT $1, $2, 'racer', password_hash, 'Racer', 'racer@example.com', 'org_user', 0, 0 FROM users WHERE username = 'user1'`,
    [racerId, svc.orgId],
  );
  // 511 memberships in one statement each (groups owned by admin), not 511 requests.
  await svc.db.query(
    `INSERT INTO groups (id, org_id, owner_id, title, created, modified)
     SELECT md5('race-filler' || g::text), $1, (SELECT id FROM users WHERE username = 'admin'), 'Race filler ' || g, 0, 0
       FROM generate_series(1, $2::int) AS g`,
    [svc.orgId, LIMITS.groupsPerUser - 1],
  );
  await svc.db.query(
    `INSERT INTO group_members (group_id, user_id, member_type, joined)
     SELECT md5('race-filler' || g::text), $1, 'member', 0 FROM generate_series(1, $2::int) AS g`,
    [racerId, LIMITS.groupsPerUser - 1],
  );
  for (const u of ['admin', 'racer']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

/** Back to 511 before each round: only the filler memberships, no group the racer owns. */
async function resetRacer() {
  await svc.db.query(
    `DELETE FROM group_members WHERE user_id = $1 AND group_id NOT IN (SELECT md5('race-filler' || g::text) FROM generate_series(1, $2::int) AS g)`,
    [racerId, LIMITS.groupsPerUser - 1],
  );
  await svc.db.query('DELETE FROM groups WHERE owner_id = $1', [racerId]);
}
beforeEach(resetRacer);

async function groupsOfRacer(): Promise<number> {
  const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*) AS n FROM group_members WHERE user_id = $1', [racerId]);
  return Number(n);
}

async function adminGroup(fields: Record<string, string> = {}): Promise<string> {
  const body = await svc.post('community/createGroup', { title: `Race ${randomUUID().slice(0, 8)}`, access: 'org', ...fields }, tokens.admin);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.group.id;
}

describe(`a member at ${LIMITS.groupsPerUser - 1} groups`, () => {
  it('starts there', async () => {
    expect(LIMITS.groupsPerUser).toBe(512);
    expect(await groupsOfRacer()).toBe(511);
  });

  it('added to two groups at the same instant joins exactly one; the other lists them with the reason', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await resetRacer();
      const [g1, g2] = [await adminGroup(), await adminGroup()];
      const results = await Promise.all([g1, g2].map((g) => svc.post(`community/groups/${g}/addUsers`, { users: 'racer' }, tokens.admin)));
      const added = results.filter((r) => r.notAdded?.length === 0);
      const refused = results.filter((r) => r.notAdded?.length === 1);
      expect(added, JSON.stringify(results)).toHaveLength(1);
      expect(refused, JSON.stringify(results)).toHaveLength(1);
      expect(refused[0]).toEqual({ notAdded: ['racer'], notAddedReasons: [{ username: 'racer', reason: expect.stringContaining('512 groups') }] });
      expect(await groupsOfRacer()).toBe(512);
    }
  });

  it('joining two groups at the same instant joins exactly one', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await resetRacer();
      const [g1, g2] = [await adminGroup(), await adminGroup()];
      const results = await Promise.all([g1, g2].map((g) => svc.post(`community/groups/${g}/join`, {}, tokens.racer)));
      expect(
        results.filter((r) => r.success),
        JSON.stringify(results),
      ).toHaveLength(1);
      expect(
        results.filter((r) => r.error?.code === 400 && /512 groups/.test(r.error.message)),
        JSON.stringify(results),
      ).toHaveLength(1);
      expect(await groupsOfRacer()).toBe(512);
    }
  });

  it('creating one group while being added to another ends at 512 too', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await resetRacer();
      const g = await adminGroup();
      const [created, add] = await Promise.all([
        svc.post('community/createGroup', { title: `Own ${round} ${randomUUID().slice(0, 6)}` }, tokens.racer),
        svc.post(`community/groups/${g}/addUsers`, { users: 'racer' }, tokens.admin),
      ]);
      const succeeded = [created.success === true, add.notAdded?.length === 0].filter(Boolean);
      expect(succeeded, JSON.stringify({ created, add })).toHaveLength(1);
      expect(await groupsOfRacer()).toBe(512);
    }
  });
});
