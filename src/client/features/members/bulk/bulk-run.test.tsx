/**
 * A bulk action that outlives its tab: on a portal without member jobs the browser's run keeps its
 * place in localStorage, and the Members page resumes it without sending a member twice; on this
 * portal the job runs on the server, and the Members page follows it to its per-member results.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, listMembers } from '../../../api/index.ts';
import { createMemberJob } from '../../../api/memberJobs.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../../test/service.ts';
import { saveRun } from './savedRun.ts';

const PASSWORD = 'Resume.Pass.4242';
let plain: ClientTestService;
let local: ClientTestService;

beforeAll(async () => {
  [plain, local] = await Promise.all([startClientService({ localExtras: false }), startClientService()]);
  for (const svc of [plain, local]) {
    await signInAs(svc, 'admin');
    for (const name of ['rsm.a', 'rsm.b', 'rsm.c'])
      await createUser({ username: name, password: PASSWORD, email: `${name}@example.com`, role: 'org_user', userLicenseTypeId: 'creatorUT' });
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([plain?.close(), local?.close()]);
});
afterEach(() => localStorage.clear());

const disabledOf = async (svc: ClientTestService, username: string) =>
  (await listMembers(svc.orgId, { username, num: 1 })).users.find((u) => u.username === username)?.disabled;

describe('a bulk action after its tab was closed', () => {
  it('resumes a browser run from where it stopped, sending only the members not done yet', async () => {
    await signInAs(plain, 'admin');
    // What a closed tab left: rsm.a done (as far as the run knows), rsm.b and rsm.c still to send.
    saveRun(plain.orgId, 'admin', {
      mode: 'browser',
      kind: 'disable',
      action: { kind: 'disable' },
      pending: ['rsm.b', 'rsm.c'],
      outcomes: [['rsm.a', { ok: true, detail: 'Disabled' }]],
      total: 3,
      paused: false,
    });
    const { user, unmount } = renderApp('/members');
    const banner = await screen.findByTestId('unfinished-bulk-run');
    expect(banner).toHaveTextContent('Disable: an unfinished bulk action');
    expect(banner).toHaveTextContent('1 of 3 members done, stopped with its browser tab.');
    await user.click(within(banner).getByRole('button', { name: 'Resume' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable: unfinished bulk action' });
    expect(within(dialog).getByText(/This browser tab runs this action/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Resume' }));
    const results = await within(dialog).findByRole('table', { name: 'Disable results' });
    expect(within(results).getAllByRole('row')).toHaveLength(4);
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('3 changed0 not changed');
    expect(await disabledOf(plain, 'rsm.b')).toBe(true);
    expect(await disabledOf(plain, 'rsm.c')).toBe(true);
    // rsm.a was recorded done, so it was not sent again (here it was never really sent: still enabled).
    expect(await disabledOf(plain, 'rsm.a')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('unfinished-bulk-run')).not.toBeInTheDocument());
    expect(localStorage.length).toBe(0);
    unmount();
  });

  it("follows this portal's server job to its end, with the portal's reason for each member it refused", async () => {
    await signInAs(local, 'admin');
    const { jobId, job } = await createMemberJob(local.orgId, 'disable', ['rsm.a', 'admin', 'rsm.b']);
    saveRun(local.orgId, 'admin', { mode: 'server', kind: 'disable', jobId, total: job.total });
    const { user, unmount } = renderApp('/members');
    const banner = await screen.findByTestId('unfinished-bulk-run');
    await waitFor(() => expect(banner).toHaveTextContent('3 of 3 members done, finished on the portal.'));
    expect(banner).toHaveTextContent('Disable: a bulk action that finished while you were away');
    await user.click(within(banner).getByRole('button', { name: 'Show results' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable: bulk action results' });
    const results = await within(dialog).findByRole('table', { name: 'Disable results' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 changed1 not changed');
    expect(within(results).getByText('admin', { selector: 'span' }).closest('tr')).toHaveTextContent('You cannot disable your own account.');
    expect(await disabledOf(local, 'rsm.a')).toBe(true);
    unmount();
  });
});
