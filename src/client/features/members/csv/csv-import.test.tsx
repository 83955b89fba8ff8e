/**
 * Members from a CSV file, as an administrator does it against the real service: the preview shows
 * each row's problems (already a member, a role the user type does not allow, a duplicate), only the
 * rows without problems are created — one createUser each — with a result per row, the portal's
 * reason for a refusal it alone can know (a username taken in another organization), and a retry
 * that sends only the refused rows again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMembers } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { recordRequests } from '../../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const CSV = [
  'Username,Email,Password,First name,Last name,Role,User type',
  'csv.nina,nina@example.com,Sturdy.Pass.91,Nina,New,Publisher,Creator',
  'csv.olga,olga@example.com,Sturdy.Pass.92,Olga,Other,Viewer,Viewer',
  'publisher1,p1@example.com,Sturdy.Pass.93,,,User,Creator',
  'csv.vic,vic@example.com,Sturdy.Pass.94,,,Administrator,Viewer',
  'csv.nina,nina2@example.com,Sturdy.Pass.95,,,,',
  'partner_admin,pa@example.com,Sturdy.Pass.96,,,User,Creator',
].join('\r\n');

describe('add members from a CSV file', () => {
  it('previews each row’s problems, adds the good rows, reports the refused one and retries only it', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    await screen.findByRole('table', { name: 'Members' });
    await user.click(screen.getByRole('button', { name: 'Add from a CSV file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add members from a CSV file' });
    // The caps are said before a file is chosen.
    expect(within(dialog).getByText(/At most 500 members and 256 KB a file/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add 0 members' })).toBeDisabled();

    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([CSV], 'people.csv', { type: 'text/csv' }));
    const table = await within(dialog).findByRole('table', { name: 'Rows of the file' });
    expect(within(dialog).getByTestId('csv-summary')).toHaveTextContent('3 will be added, 3 with problems.');
    const row = (line: number) => within(table).getByText(String(line), { selector: 'p' }).closest('tr')!;
    expect(row(4)).toHaveTextContent('Already a member');
    expect(row(5)).toHaveTextContent(/Viewer/);
    expect(row(6)).toHaveTextContent('Username is also on line 2');
    expect(row(2)).toHaveTextContent('Will be added');
    // Not in this organization, so only the portal can tell the name is taken.
    expect(row(7)).toHaveTextContent('Will be added');

    const wire = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Add 3 members' }));
    const results = await within(dialog).findByRole('table', { name: 'Members added from the file' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 added1 not added');
    expect(within(results).getByText('partner_admin (line 7)').closest('tr')).toHaveTextContent(/already taken/);
    const creates = () => wire.sent.filter((r) => r.path === 'security/users/createUser').map((r) => r.params.get('username'));
    expect(creates().sort()).toEqual(['csv.nina', 'csv.olga', 'partner_admin']);
    const olga = wire.sent.find((r) => r.params.get('username') === 'csv.olga')!;
    expect(olga.params.get('role')).toBe('iAAAAAAAAAAAAAAA');
    expect(olga.params.get('userLicenseTypeId')).toBe('viewerUT');

    await user.click(within(dialog).getByRole('button', { name: 'Retry failed (1)' }));
    await waitFor(() => expect(creates()).toHaveLength(4));
    expect(creates()[3]).toBe('partner_admin');
    await within(dialog).findByRole('table', { name: 'Members added from the file' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 added1 not added');
    wire.stop();

    const members = await listMembers(svc.orgId, { num: 100 });
    const nina = members.users.find((m) => m.username === 'csv.nina');
    expect(nina).toMatchObject({ role: 'org_publisher', userLicenseTypeId: 'creatorUT', fullName: 'Nina New' });
    expect(members.users.some((m) => m.username === 'csv.vic')).toBe(false);
    // A whole import, retry included: more than the default budget on a busy machine.
  }, 60_000);

  it('refuses a file past the size cap and one without the required columns, saying why', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    await user.click(await screen.findByRole('button', { name: 'Add from a CSV file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add members from a CSV file' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'.repeat(300 * 1024)], 'huge.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText('huge.csv is 300 KB; at most 256 KB can be read.')).toBeInTheDocument();
    await user.upload(input, new File(['Name,Email\nann,a@example.com'], 'names.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText(/missing: username, password/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add 0 members' })).toBeDisabled();
  });

  it('asks before a chosen file and its preview are thrown away, and closes at once when none was chosen', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    await user.click(await screen.findByRole('button', { name: 'Add from a CSV file' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add members from a CSV file' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add members from a CSV file' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Add from a CSV file' }));
    dialog = await screen.findByRole('dialog', { name: 'Add members from a CSV file' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([CSV], 'people.csv', { type: 'text/csv' }));
    await within(dialog).findByRole('table', { name: 'Rows of the file' });
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByRole('table', { name: 'Rows of the file' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add members from a CSV file' })).not.toBeInTheDocument());
  });
});
