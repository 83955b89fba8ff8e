import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, signInAs } from '../test/render.tsx';
import { recordRequests } from '../test/requests.ts';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { MemberPicker, type PickedMember } from './MemberPicker.tsx';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());
// The test setup signs out after each test.
beforeEach(() => signInAs(svc, 'admin'));

const memberSearches = (wire: ReturnType<typeof recordRequests>) =>
  wire.sent.filter((r) => /^portals\/[^/]+\/users$/.test(r.path)).map((r) => r.params.get('q') ?? '');

function One() {
  const [value, setValue] = useState<PickedMember | null>(null);
  return (
    <>
      <MemberPicker orgId={svc.orgId} label="Reviewer" value={value} onChange={setValue} />
      <output data-testid="chosen">{value?.username ?? 'none'}</output>
    </>
  );
}

function Several() {
  const [value, setValue] = useState<PickedMember[]>([]);
  return (
    <>
      <MemberPicker
        multiple
        orgId={svc.orgId}
        label="Members to add"
        value={value}
        onChange={setValue}
        describeMember={(m) => (m.role === 'org_admin' ? 'Already a manager' : 'Can be added')}
      />
      <output data-testid="chosen">{value.map((m) => m.username).join(',') || 'none'}</output>
    </>
  );
}

describe('MemberPicker', () => {
  it('searches once per settled text: a burst of keys is one request, keys typed slowly one each', async () => {
    const { user } = renderWithProviders(<One />);
    const box = screen.getByRole('combobox', { name: 'Reviewer' });
    const wire = recordRequests();
    // Opening the list asks for the first members; quick typing then settles once.
    await user.click(box);
    await waitFor(() => expect(memberSearches(wire)).toEqual(['']));
    await user.type(box, 'pat');
    await waitFor(() => expect(screen.queryByRole('option', { name: /viewer1/ })).toBeNull());
    expect(screen.getByRole('option', { name: /publisher1/ })).toBeInTheDocument();
    // The list may narrow before the settled search is sent: wait for it, which must be the only one.
    await waitFor(() => expect(memberSearches(wire)).toEqual(['', 'pat']));
    // Slow typing (longer than the pause that ends a search): each keystroke settles and is one request.
    await user.clear(box);
    for (const key of 'vic') {
      await user.type(box, key);
      await new Promise((r) => setTimeout(r, 400));
    }
    await waitFor(() => expect(screen.queryByRole('option', { name: /publisher1/ })).toBeNull());
    await new Promise((r) => setTimeout(r, 600));
    expect(memberSearches(wire)).toEqual(['', 'pat', 'v', 'vi', 'vic']);
    wire.stop();
  }, 30_000);

  it('says how many members the list holds, politely, and that nothing matches', async () => {
    const { user } = renderWithProviders(<One />);
    const box = screen.getByRole('combobox', { name: 'Reviewer' });
    await user.click(box);
    // The picker's own region, not the console's announcer.
    const region = document.querySelector('[aria-live="polite"]:not([data-testid])')!;
    await waitFor(() => expect(region).toHaveTextContent(/^\d+ members? found\.$/));
    await user.type(box, 'zzzz-nobody');
    await waitFor(() => expect(region).toHaveTextContent('No member matches “zzzz-nobody”.'));
    expect(screen.getByText('No member matches “zzzz-nobody”.', { selector: '.mantine-Combobox-empty' })).toBeInTheDocument();
    // Keyboard: Escape closes the list, the region falls silent, the typed text stays to be edited.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(region).toHaveTextContent('');
    expect(box).toHaveValue('zzzz-nobody');
  }, 30_000);

  it('is chosen with the keyboard: arrows and Enter', async () => {
    const { user } = renderWithProviders(<One />);
    const box = screen.getByRole('combobox', { name: 'Reviewer' });
    await user.click(box);
    await user.type(box, 'user1');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('chosen')).toHaveTextContent('user1');
    expect(box).toHaveValue('Uma User (user1)');
    expect(screen.queryByRole('listbox')).toBeNull();
  }, 30_000);

  it('Enter picks the highlighted member when a search answer replaces the list under the highlight', async () => {
    const { user } = renderWithProviders(<One />);
    const box = screen.getByRole('combobox', { name: 'Reviewer' });
    await user.click(box);
    await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(2));
    expect(screen.getAllByRole('option').findIndex((o) => /user1/.test(o.textContent ?? ''))).toBeGreaterThan(0);
    // The answer for "Uma" is held back until the highlight is on Uma in the first page's list, as
    // when a person arrows faster than the portal answers.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = globalThis.fetch;
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (`${url}&${typeof init?.body === 'string' ? init.body : ''}`.includes('q=Uma')) await held;
      return original(input, init);
    });
    try {
      await user.type(box, 'Uma');
      const uma = () => screen.getByRole('option', { name: /user1/ });
      for (let i = 0; i < 30 && !uma().hasAttribute('data-combobox-selected'); i++) await user.keyboard('{ArrowDown}');
      expect(uma()).toHaveAttribute('data-combobox-selected');
      release();
      await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
      expect(uma()).toHaveAttribute('data-combobox-selected');
      await user.keyboard('{Enter}');
      expect(screen.getByTestId('chosen')).toHaveTextContent('user1');
    } finally {
      release();
      fetchSpy.mockRestore();
    }
  }, 30_000);

  it('multiple: members become pills, are removed one by one or by Backspace, and the list notes each one', async () => {
    const { user } = renderWithProviders(<Several />);
    const box = screen.getByRole('combobox', { name: 'Members to add' });
    await user.click(box);
    const viewer = await screen.findByRole('option', { name: /viewer1/ });
    expect(viewer).toHaveTextContent('Can be added');
    expect(screen.getByRole('option', { name: /\(admin\)/ })).toHaveTextContent('Already a manager');
    await user.click(viewer);
    // The list stays open for the next one, and marks the chosen.
    expect(screen.getByRole('option', { name: /viewer1/ })).toHaveAttribute('aria-selected', 'true');
    await user.type(box, 'pub');
    await waitFor(() => expect(screen.queryByRole('option', { name: /viewer1/ })).toBeNull());
    await user.click(screen.getByRole('option', { name: /publisher1/ }));
    expect(screen.getByTestId('chosen')).toHaveTextContent('viewer1,publisher1');
    expect(box).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Remove Vic Viewer (viewer1)' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent('publisher1');
    await user.click(box);
    await user.keyboard('{Backspace}');
    expect(screen.getByTestId('chosen')).toHaveTextContent('none');

    // Choosing one again from the list, then "Clear" empties the lot.
    await user.click(await screen.findByRole('option', { name: /user1/ }));
    const pills = screen.getByTestId('chosen');
    expect(pills).toHaveTextContent('user1');
    // By keyboard: Tab from the box to "Clear", Enter; the box has focus again to type the next name.
    await user.keyboard('{Escape}');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Clear members to add' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(pills).toHaveTextContent('none');
    expect(box).toHaveFocus();
    expect(within(document.body).queryByRole('button', { name: /^Remove / })).toBeNull();
  }, 30_000);
});
