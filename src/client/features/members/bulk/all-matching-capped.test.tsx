/**
 * "All N matching" on a portal that pages a search only so far (LOCAL_EXTRAS=off, as ArcGIS Online,
 * with MEMBER_SEARCH_CAP made small): every matching member is read exactly once, in parts by
 * creation date, and the bulk preview says how they were read.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, filtersAsSearch, listAllMembers, listMembers, UnpartitionableFilterError } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../../test/service.ts';

const CAP = 50;
const MEMBERS = 120;
let svc: ClientTestService;
const names = Array.from({ length: MEMBERS }, (_, i) => `cap.${String(i).padStart(3, '0')}`);

beforeAll(async () => {
  // The child service reads it from the environment it inherits (test/service-process.ts).
  process.env.MEMBER_SEARCH_CAP = String(CAP);
  try {
    svc = await startClientService({ localExtras: false });
  } finally {
    delete process.env.MEMBER_SEARCH_CAP;
  }
  await signInAs(svc, 'admin');
  for (let i = 0; i < MEMBERS; i += 4)
    await Promise.all(
      names.slice(i, i + 4).map((username) => createUser({ username, password: 'Cap.Pass.4242', email: `${username}@example.com`, role: 'org_user' })),
    );
}, 120_000);
afterAll(() => svc?.close());

describe('all matching members past the portal search cap', () => {
  it('the portal really stops paging at the cap, with the true total', async () => {
    await signInAs(svc, 'admin');
    const past = await listMembers(svc.orgId, { q: 'cap.', start: CAP + 1, num: 100 });
    expect(past.total).toBe(MEMBERS);
    expect(past.users).toEqual([]);
  });

  it('reads every matching member exactly once, in parts by creation date', async () => {
    await signInAs(svc, 'admin');
    const progress: number[] = [];
    const all = await listAllMembers(svc.orgId, { q: 'cap.', sortField: 'username', sortOrder: 'asc' }, { onProgress: (read) => progress.push(read) });
    const usernames = all.members.map((u) => u.username);
    expect(usernames).toHaveLength(MEMBERS);
    expect([...usernames].sort()).toEqual(names);
    expect(all.partitioned?.cap).toBe(CAP);
    expect(all.partitioned!.parts).toBeGreaterThanOrEqual(Math.ceil(MEMBERS / CAP));
    expect(progress.at(-1)).toBe(MEMBERS);
    // Halving a span members fill unevenly may split a little more than N / cap, never wildly.
    expect(all.partitioned!.parts).toBeLessThanOrEqual(2 * Math.ceil(MEMBERS / CAP) + 2);
  });

  it('says so, rather than guess, for a filter with no documented search field', async () => {
    expect(() => filtersAsSearch({ role: 'cUsToMrOlE0000001' })).toThrow(UnpartitionableFilterError);
    expect(() => filtersAsSearch({ q: 'say "hi"' })).toThrow(/cannot be written as a member search/);
    expect(filtersAsSearch({ q: 'cap.', role: 'org_user' }).q).toBe('cap. AND role:org_user');
  });

  it('the bulk preview of all matching says how the members were read', async () => {
    await signInAs(svc, 'admin');
    const { user, unmount } = renderApp('/members?q=cap.&num=25');
    await user.click(await screen.findByRole('button', { name: `Select all ${MEMBERS} matching` }));
    await user.click(screen.getByRole('button', { name: 'Act on selection' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: `Disable: ${MEMBERS} members` });
    const how = await within(dialog).findByTestId('bulk-read-how', {}, { timeout: 20_000 });
    expect(how.textContent).toMatch(
      new RegExp(`^${MEMBERS} members read in \\d+ parts by creation date: the portal returns at most ${CAP} members per search\\.$`),
    );
    await waitFor(() => expect(within(dialog).getByTestId('bulk-summary')).toHaveTextContent(`${MEMBERS} will change, 0 skipped.`));
    unmount();
  }, 60_000);
});
