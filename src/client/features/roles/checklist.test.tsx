import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PRIVILEGES } from '../../../shared/privileges.ts';
import { PrivilegeChecklist } from '../../components/PrivilegeChecklist.tsx';
import { comparePrivileges, diffPrivileges, impliedBy } from '../../lib/privilegeSets.ts';
import { queryInputByLabel, inputByLabel } from '../../test/queries.ts';
import { renderWithProviders } from '../../test/render.tsx';

/** The checklist with its own state, and what it last reported. */
function Harness({ initial = [], seen }: { initial?: string[]; seen: { value: string[] } }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <PrivilegeChecklist
      value={value}
      onChange={(next) => {
        // The test's probe of what the checklist reported, not component state.
        // eslint-disable-next-line react-hooks/immutability
        seen.value = next;
        setValue(next);
      }}
    />
  );
}

const box = (label: string) => inputByLabel(label);
const areas = () =>
  screen
    .queryAllByRole('group')
    .filter((g) => g.hasAttribute('data-area'))
    .map((r) => r.getAttribute('data-area'));

describe('privilege checklist', () => {
  it('groups the catalogue by general / administrative, then area, with every privilege once', () => {
    renderWithProviders(<Harness seen={{ value: [] }} />);
    expect(screen.getByRole('heading', { name: 'General privileges' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Administrative privileges' })).toBeInTheDocument();
    expect(areas()).toEqual(expect.arrayContaining(['general/members', 'general/content', 'administrative/members', 'administrative/organization settings']));
    // Members has one general privilege and nine administrative ones.
    const [general, admin] = screen.getAllByRole('group', { name: 'Members' });
    expect(within(general).getAllByRole('checkbox')).toHaveLength(1 + 1);
    expect(within(admin).getAllByRole('checkbox')).toHaveLength(9 + 1);
    expect(document.querySelectorAll('input[data-privilege]')).toHaveLength(PRIVILEGES.length);
    expect(screen.getByTestId('privilege-count')).toHaveTextContent('0 granted');
  });

  it('filters by label or id; select-all then acts on what is shown', async () => {
    const seen = { value: [] as string[] };
    const { user } = renderWithProviders(<Harness seen={seen} />);
    await user.type(screen.getByRole('searchbox', { name: 'Filter privileges' }), 'notebook');
    expect(areas()).toEqual(['general/content', 'general/premium content']);
    expect(box('Create and edit notebooks')).toBeInTheDocument();
    expect(queryInputByLabel('Create groups')).toBeNull();
    const selectContent = box('Select all in Content (general)');
    expect(within(selectContent.closest<HTMLElement>('[data-area]')!).getByText('Select all 2 shown')).toBeInTheDocument();
    await user.click(selectContent);
    // Notebooks need content creation, ticked with them though it is not shown.
    expect(seen.value.sort()).toEqual(['portal:user:createItem', 'premium:publisher:createNotebooks', 'premium:publisher:scheduleNotebooks']);
    expect(selectContent).toBeChecked();
    // Unticking "all" drops them again (what they needed stays).
    await user.click(selectContent);
    expect(seen.value).toEqual(['portal:user:createItem']);

    await user.clear(screen.getByRole('searchbox', { name: 'Filter privileges' }));
    await user.type(screen.getByRole('searchbox', { name: 'Filter privileges' }), 'no-such-privilege');
    expect(screen.getByText('No privileges match “no-such-privilege”.')).toBeInTheDocument();
  });

  it('select-all of an area ticks all of it, and shows part-ticked areas as mixed', async () => {
    const seen = { value: [] as string[] };
    const { user } = renderWithProviders(<Harness seen={seen} initial={['features:user:edit']} />);
    const all = box('Select all in Features (general)');
    expect(all).not.toBeChecked();
    expect(all).toHaveAttribute('data-indeterminate', 'true');
    await user.click(all);
    expect(seen.value.sort()).toEqual(['features:user:edit', 'features:user:editIndoorsSpaces', 'features:user:fullEdit']);
  });

  it('ticks and explains what a privilege includes, and notes what one needs', async () => {
    const seen = { value: [] as string[] };
    const { user } = renderWithProviders(<Harness seen={seen} />);
    await user.click(box('Edit with full control'));
    expect(seen.value).toEqual(['features:user:fullEdit']);
    const edit = box('Edit features');
    expect(edit).toBeChecked();
    expect(edit).toBeDisabled();
    expect(edit).toHaveAccessibleDescription(expect.stringContaining('Included by Edit with full control'));
    expect(screen.getByTestId('privilege-count')).toHaveTextContent('2 granted (1 included by others)');

    // Publishing needs content creation: ticked with it, and noted.
    await user.click(box('Publish hosted feature layers'));
    expect(box('Create, update and delete own content')).toBeChecked();
    expect(seen.value).toContain('portal:user:createItem');
    expect(box('Publish hosted feature layers')).toHaveAccessibleDescription(expect.stringContaining('Requires Create, update and delete own content'));

    // Unticking the source unticks what it included.
    await user.click(box('Edit with full control'));
    expect(box('Edit features')).not.toBeChecked();
    expect(box('Edit features')).toBeEnabled();
  });

  it('a value saved without a prerequisite shows the gap in warning words', () => {
    renderWithProviders(<Harness seen={{ value: [] }} initial={['portal:publisher:publishFeatures']} />);
    expect(box('Publish hosted feature layers')).toHaveAccessibleDescription(
      expect.stringContaining('Needs Create, update and delete own content, which is not granted'),
    );
  });

  it('read-only shows only what is granted, and nothing can be ticked', async () => {
    const { user } = renderWithProviders(<PrivilegeChecklist value={['portal:user:viewOrgUsers', 'features:user:fullEdit']} readOnly />);
    expect(screen.getByRole('switch', { name: 'Only granted' })).toBeChecked();
    expect(areas()).toEqual(['general/members', 'general/features']);
    expect(document.querySelector('input[aria-label^="Select all"]')).toBeNull();
    const view = box('View members of the organization');
    await user.click(view);
    expect(view).toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Only granted' }));
    expect(box('Create groups')).not.toBeChecked();
  });
});

describe('privilege sets', () => {
  it('diffs and compares in effect, implied privileges included, in catalogue order', () => {
    expect(diffPrivileges(['portal:user:viewOrgUsers'], ['features:user:fullEdit'])).toEqual({
      added: ['features:user:edit', 'features:user:fullEdit'],
      removed: ['portal:user:viewOrgUsers'],
    });
    expect(diffPrivileges(['features:user:fullEdit'], ['features:user:fullEdit', 'features:user:edit'])).toEqual({ added: [], removed: [] });
    expect(comparePrivileges(['features:user:fullEdit', 'portal:user:createGroup'], ['features:user:edit', 'portal:admin:viewUsers'])).toEqual({
      onlyA: ['portal:user:createGroup', 'features:user:fullEdit'],
      onlyB: ['portal:admin:viewUsers'],
      both: ['features:user:edit'],
    });
    expect(impliedBy(['features:user:manageVersions', 'features:user:fullEdit']).get('features:user:edit')?.sort()).toEqual([
      'features:user:fullEdit',
      'features:user:manageVersions',
    ]);
  });
});
