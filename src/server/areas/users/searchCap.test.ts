/**
 * ArcGIS Online pages a search only to its 10,000th result (MEMBER_SEARCH_CAP here, small in this
 * test): with LOCAL_EXTRAS=off member listing and search stop there — a page past it is empty and
 * still carries the true total — while the portal with its extras pages to the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import type { Db } from '../../store/db.ts';

const CAP = 50;
const MEMBERS = 180;
let capped: TestService;
let uncapped: TestService;

/** MEMBERS members `cap.NNN` in one statement, created a minute apart (passwords copied, never used). */
async function insertMany(db: Db, orgId: string) {
  await db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, created, modified)
     SELECT md5('cap' || i), $1, 'cap.' || lpad(i::text, 3, '0'), u.password_hash, 'Cap ' || i, 'cap' || i || '@example.com', 'org_user', 1700000000000 + i * 60000, 0
       FROM generate_series(1, ${MEMBERS}) AS i, (SELECT password_hash FROM users WHERE username = 'user1') u`,
    [orgId],
  );
}

beforeAll(async () => {
  capped = await startService({ config: { localExtras: false, memberSearchCap: CAP } });
  uncapped = await startService();
  await insertMany(capped.db, capped.orgId);
  await insertMany(uncapped.db, uncapped.orgId);
});
afterAll(async () => {
  await capped?.close();
  await uncapped?.close();
});

type Page = { total: number; start: number; num: number; nextStart: number; users?: { username: string }[]; results?: { username: string }[] };
const rows = (p: Page) => p.users ?? p.results ?? [];

/** The three member listings, each asked for `cap.` members from `start`. */
async function pages(svc: TestService, start: number, num = 100): Promise<Page[]> {
  const token = await svc.tokenFor('admin');
  return Promise.all([
    svc.post(`portals/${svc.orgId}/users`, { username: 'cap.', start: String(start), num: String(num) }, token),
    svc.post('portals/self/users/search', { q: 'username:cap.', start: String(start), num: String(num) }, token),
    svc.post('community/users', { q: 'username:cap.', start: String(start), num: String(num) }, token),
  ]) as Promise<Page[]>;
}

describe('member search cap (LOCAL_EXTRAS=off)', () => {
  it('pages to the cap and no further, with the true total', async () => {
    for (const first of await pages(capped, 1)) {
      expect(first.total).toBe(MEMBERS);
      expect(rows(first)).toHaveLength(CAP);
      expect(first.nextStart).toBe(-1);
    }
    for (const straddling of await pages(capped, 41, 20)) {
      expect(rows(straddling).map((u) => u.username)).toEqual(Array.from({ length: 10 }, (_, i) => `cap.${String(41 + i).padStart(3, '0')}`));
      expect(straddling.nextStart).toBe(-1);
    }
    for (const past of await pages(capped, CAP + 1)) {
      expect(past).toMatchObject({ total: MEMBERS, start: CAP + 1, num: 0, nextStart: -1 });
      expect(rows(past)).toEqual([]);
    }
  });

  it('reaches every member through created ranges each under the cap', async () => {
    const token = await capped.tokenFor('admin');
    const seen = new Set<string>();
    for (let lo = 1; lo <= MEMBERS; lo += 40) {
      const range = `created:[${1700000000000 + lo * 60000} TO ${1700000000000 + (lo + 39) * 60000}]`;
      const page = (await capped.post('portals/self/users/search', { q: `username:cap. AND ${range}`, num: '100' }, token)) as Page;
      expect(page.total).toBeLessThanOrEqual(CAP);
      for (const u of rows(page)) seen.add(u.username);
    }
    expect(seen.size).toBe(MEMBERS);
  });

  it('still refuses a bad start in the error envelope', async () => {
    const answer = await capped.post('portals/self/users/search', { q: '*', start: '0' }, await capped.tokenFor('admin'));
    expect(answer).toMatchObject({ error: { code: 400 } });
  });
});

describe('member search with the local extras', () => {
  it('pages past any cap to the last member', async () => {
    for (const page of await pages(uncapped, 151)) {
      expect(page.total).toBe(MEMBERS);
      expect(rows(page)).toHaveLength(MEMBERS - 150);
      expect(rows(page).at(-1)?.username).toBe(`cap.${MEMBERS}`);
    }
  });
});
