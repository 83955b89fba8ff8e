/**
 * Undo of a whole bulk member job, against the real local portal: from the job's results dialog,
 * and from its one entry on the Activity page. The members it changed are put back as one job; a
 * member changed since is left as they are, with the reason.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, listMembers, setMemberDisabled } from '../../../api/index.ts';
import { createMemberJob, memberJobEnded } from '../../../api/memberJobs.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../../test/service.ts';
import { saveRun } from './savedRun.ts';

let svc: ClientTestService;
const NAMES = ['undo.one', 'undo.two', 'undo.three', 'undo.four', 'undo.five'];

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  for (const name of NAMES)
    await createUser({ username: name, password: DEMO_PASSWORD, email: `${name}@example.com`, role: 'org_user', userLicenseTypeId: 'creatorUT' });
}, 60_000);
afterAll(() => svc?.close());
afterEach(() => localStorage.clear());

const disabledOf = async (username: string) => (await listMembers(svc.orgId, { username, num: 1 })).users.find((u) => u.username === username)?.disabled;

describe('undo a whole member job', () => {
  it('from the results of a finished job: every member it disabled is enabled again', async () => {
    await signInAs(svc, 'admin');
    const { jobId, job } = await createMemberJob(svc.orgId, 'disable', ['undo.one', 'undo.two']);
    saveRun(svc.orgId, 'admin', { mode: 'server', kind: 'disable', jobId, total: job.total });
    const { user, unmount } = renderApp('/members');
    const banner = await screen.findByTestId('unfinished-bulk-run');
    await waitFor(() => expect(banner).toHaveTextContent('2 of 2 members done, finished on the portal.'));
    await user.click(within(banner).getByRole('button', { name: 'Show results' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable: bulk action results' });
    await within(dialog).findByRole('table', { name: 'Disable results' });
    expect(await disabledOf('undo.one')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Undo this job' }));
    expect(await within(dialog).findByTestId('job-undo-result', {}, { timeout: 15_000 })).toHaveTextContent('Undone: 2 members put back.');
    expect(within(dialog).getByRole('button', { name: 'Undo this job' })).toBeDisabled();
    expect([await disabledOf('undo.one'), await disabledOf('undo.two')]).toEqual([false, false]);
    unmount();
  }, 60_000);

  it("from the job's entry on the Activity page, leaving a member enabled again since as they are", async () => {
    await signInAs(svc, 'admin');
    const { jobId } = await createMemberJob(svc.orgId, 'disable', ['undo.three', 'undo.four', 'undo.five']);
    await memberJobEnded(svc.orgId, jobId, 100);
    await setMemberDisabled('undo.five', false);
    const { user, unmount } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    await user.click(
      await within(table).findByRole('checkbox', { name: "Select to undo: admin ran the bulk job 'Bulk disable of 3 members': 3 changed, 0 not changed" }),
    );
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    await within(dialog).findByText(/^Put back every member the job 'Bulk disable of 3 members' changed, as one job\./);
    await user.click(await within(dialog).findByRole('button', { name: 'Undo 1 change' }));
    const results = await within(dialog).findByRole('table', { name: 'Undo results' }, { timeout: 15_000 });
    expect(results).toHaveTextContent(
      '2 members put back; 1 left as they are (undo.five: Skipped: the member was enabled again since the job, so it is left as it is.).',
    );
    expect([await disabledOf('undo.three'), await disabledOf('undo.four'), await disabledOf('undo.five')]).toEqual([false, false, false]);
    unmount();
  }, 60_000);
});
