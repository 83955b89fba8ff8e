import { expect } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { createMember, DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

test('a bulk disable runs as a portal job: the tab closed once it started, and followed to its per-member results from a new tab', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { token } = await (await page.request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const tag = `jobs${Date.now().toString(36)}`;
  // More than one of the runner's batches (50 members each), by the fewest: 51 (70 were 19 more
  // password hashes of half a CPU-second each). Created four at a time (each account's password hash
  // is the slow part).
  const total = 51;
  const names = Array.from({ length: total }, (_, i) => `${tag}_${String(i).padStart(3, '0')}`);
  for (let i = 0; i < total; i += 4) {
    await Promise.all(
      names
        .slice(i, i + 4)
        .map((username) => createMember(page.request, token, { username, password: 'Crew.Member.77', firstname: 'Job', lastname: username })),
    );
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto(`/members?q=${tag}`);
  await page.getByRole('button', { name: `Select all ${total} matching` }).click();
  await page.getByRole('button', { name: 'Act on selection' }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  const dialog = page.getByRole('dialog', { name: `Disable: ${total} members` });
  await expect(dialog.getByTestId('bulk-summary')).toHaveText(`${total} will change, 0 skipped.`, { timeout: 30_000 });
  await dialog.getByRole('button', { name: `Disable ${total} members` }).click();

  // The portal runs it: the tab is closed as soon as the job has started (Pause is offered then).
  await expect(dialog.getByText(/The portal runs this job/)).toBeVisible();
  // Enabled once the portal answered with the job, which this tab then keeps (before its first look at the progress, a second later).
  await expect(dialog.getByRole('button', { name: 'Pause' })).toBeEnabled();
  await page.close();

  // A new tab (signed in again) finds the job on the Members page, finished by the portal meanwhile.
  const again = await context.newPage();
  await again.setViewportSize({ width: 1440, height: 900 });
  await signIn(again, 'admin');
  await again.goto(`/members?q=${tag}`);
  const banner = again.getByTestId('unfinished-bulk-run');
  await expect(banner).toContainText('Disable: ');
  await expect(banner).toContainText(`${total} of ${total} members done, finished on the portal.`, { timeout: 60_000 });
  // Once it has ended, the notice no longer calls it unfinished and offers its results.
  await expect(banner).toContainText('Disable: a bulk action that finished while you were away');
  await expectAxeClean(again);
  await snap(again, 'member-jobs-banner-1440');
  const resumed = again.getByRole('dialog', { name: 'Disable: bulk action results' });
  await banner.getByRole('button', { name: 'Show results' }).click();
  await expect(resumed.getByRole('table', { name: 'Disable results' })).toBeVisible();
  await expect(resumed.getByTestId('bulk-counts')).toContainText(`${total} changed`);
  await expectAxeClean(again, '[role="dialog"]');
  await snap(again, 'member-jobs-results-1440');

  // Every one of them is disabled.
  const disabledCount = async () =>
    (await (await again.request.get(`/sharing/rest/portals/self/users?f=json&token=${token}&q=${tag}&num=100&disabled=true`)).json()).total;
  expect(await disabledCount()).toBe(total);

  // The whole job undone as one action, from its results: every member enabled again.
  await resumed.getByRole('button', { name: 'Undo this job' }).click();
  await expect(resumed.getByTestId('job-undo-result')).toHaveText(`Undone: ${total} members put back.`, { timeout: 60_000 });
  await expect(resumed.getByRole('button', { name: 'Undo this job' })).toBeDisabled();
  await expectAxeClean(again, '[role="dialog"]');
  await snap(again, 'member-jobs-undone-1440');
  await resumed.getByRole('button', { name: 'Done' }).click();
  await expect(banner).toHaveCount(0);
  expect(await disabledCount()).toBe(0);
});
