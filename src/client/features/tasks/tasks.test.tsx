import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, createTask, getTask, listTasks } from '../../api/index.ts';
import { NARROW_QUERY } from '../../lib/narrow.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const weekdays = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };

describe('scheduled tasks page', () => {
  it('creates a report task from the form (checked first, then by the service) and lists it with words, next run and state', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/tasks');
    expect(await screen.findByText('No scheduled tasks')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New scheduled task' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Items every weekday');
    // An advanced field with a bad value is refused before sending, beside the field.
    await user.click(within(dialog).getByText('Advanced (CRON fields)'));
    const hour = within(dialog).getByRole('textbox', { name: /^Hour/ });
    await user.clear(hour);
    await user.type(hour, '31');
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    expect((await within(dialog).findAllByText(/31 is outside 0–23/)).length).toBeGreaterThan(0);
    await user.clear(hour);
    await user.type(hour, '7');
    // An end date already past: the service refuses (no run left), and says so beside the field.
    fireEvent.change(within(dialog).getByLabelText(/^End \(your time\)/), { target: { value: '2020-01-01T00:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    expect(await within(dialog).findByText(/^Leaves no run/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/^End \(your time\)/), { target: { value: '' } });
    await user.click(within(dialog).getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New scheduled task' })).toBeNull());

    const table = await screen.findByRole('table', { name: 'Scheduled tasks' });
    const row = (await within(table).findByText('Items every weekday')).closest('tr')!;
    expect(row).toHaveTextContent('At 07:30 AM, Monday through Friday (UTC)');
    expect(row).toHaveTextContent(/07:30 UTC/);
    expect(row).toHaveTextContent('active');
    const listed = await listTasks('admin');
    expect(listed.tasks[0]).toMatchObject({
      title: 'Items every weekday',
      type: 'ExecuteReport',
      parameters: { reportType: 'members' },
      cronSchedule: weekdays,
    });
  });

  it('pauses and resumes selected tasks with a result per task', async () => {
    await signInAs(svc, 'admin');
    const a = (await createTask('admin', { type: 'ExecuteReport', title: 'Bulk A', parameters: { reportType: 'groups' }, ...weekdays })).taskId;
    const b = (await createTask('admin', { type: 'ExecuteReport', title: 'Bulk B', parameters: { reportType: 'items' }, ...weekdays })).taskId;
    const notebook = (await addItem('admin', '/', { title: 'Nightly hydrant check', type: 'Notebook', text: '{}' })).id;
    await createTask('admin', { type: 'ExecuteNotebook', title: 'Run the notebook', itemId: notebook, ...weekdays });
    const { user } = renderApp('/tasks');
    // The Item column names the item by its title, linked to its page (not its id).
    const notebookRow = (await screen.findByText('Run the notebook')).closest('tr')!;
    const itemLink = await within(notebookRow).findByRole('link', { name: 'Nightly hydrant check' });
    expect(itemLink).toHaveAttribute('href', `/content/items/${notebook}`);
    expect(notebookRow).not.toHaveTextContent(notebook.slice(0, 8));
    await user.click(await screen.findByRole('checkbox', { name: 'Select Bulk A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bulk B' }));
    await user.click(screen.getByRole('button', { name: 'Pause selected' }));
    const results = await screen.findByRole('table', { name: 'Pausing tasks: results' });
    expect(within(results).getAllByText('Paused')).toHaveLength(2);
    expect((await getTask('admin', a)).active).toBe(false);
    expect(await getTask('admin', b)).toMatchObject({ active: false, taskState: 'paused', stateReason: 'Paused by admin.' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Pausing tasks: results' })).toBeNull());
    await user.click(await screen.findByRole('checkbox', { name: 'Select Bulk A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bulk B' }));
    await user.click(screen.getByRole('button', { name: 'Resume selected' }));
    const resumed = await screen.findByRole('table', { name: 'Resuming tasks: results' });
    expect(within(resumed).getAllByText('Resumed')).toHaveLength(2);
    expect(await getTask('admin', a)).toMatchObject({ active: true, taskState: 'active', stateReason: null });
  });

  it('edits a task: the form opens on its preset (monthly, last day) and saves a new time', async () => {
    await signInAs(svc, 'admin');
    const id = (
      await createTask('admin', {
        type: 'ExecuteReport',
        title: 'Month end',
        parameters: { reportType: 'items' },
        minute: '0',
        hour: '22',
        dayOfMonth: 'L',
        month: '*',
        dayOfWeek: '?',
      })
    ).taskId;
    const { user } = renderApp('/tasks');
    await user.click(await screen.findByRole('button', { name: 'Actions for Month end' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Month end' });
    expect(within(dialog).getByLabelText(/^Repeat/, { selector: 'input' })).toHaveValue('Monthly');
    expect(within(dialog).getByLabelText(/^Day of the month/, { selector: 'input' })).toHaveValue('Last day');
    expect(within(dialog).getByTestId('schedule-words')).toHaveTextContent('At 10:00 PM, on the last day of the month (UTC)');
    fireEvent.change(within(dialog).getByLabelText(/Time \(UTC\)/), { target: { value: '21:15' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save task' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Month end' })).toBeNull());
    expect(await getTask('admin', id)).toMatchObject({
      cronSchedule: { minute: '15', hour: '21', dayOfMonth: 'L', month: '*', dayOfWeek: '?' },
      parameters: { reportType: 'items' },
    });
  });

  it("on a phone, a task card's actions button is a 44 px touch target", async () => {
    await signInAs(svc, 'admin');
    const wide = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...wide(query), matches: query === NARROW_QUERY });
    try {
      renderApp('/tasks');
      const actions = await screen.findByRole('button', { name: 'Actions for Bulk A' });
      // Mantine's ActionIcon xl is 44 px (2.75rem); the default md is 28 px.
      expect(actions.getAttribute('style')).toContain('--ai-size-xl');
    } finally {
      window.matchMedia = wide;
    }
  });
});
