import { screen, waitFor, within } from '@testing-library/react';
import { createRole, setRolePrivileges, updateUserRole } from '../../api/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { groupPrivileges } from './privilegeGroups.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

describe('overview page', () => {
  it('shows the organization, member count, role and privileges of a default administrator', async () => {
    await signInAs(svc, 'admin');
    renderApp('/overview');
    expect(await screen.findByTestId('org-name')).toHaveTextContent('Demo Organization');
    expect(screen.getByText(svc.orgId)).toBeInTheDocument();
    const org = screen.getByRole('region', { name: 'Organization' });
    expect(within(org).getByText('Members').nextSibling).toHaveTextContent('4');
    expect(screen.getByTestId('self-role')).toHaveTextContent('Administrator');
    expect(screen.getByText('Default administrator')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Administrative privileges/ })).toBeInTheDocument();
  });

  it('shows a custom role by name with its id, and only the privileges held', async () => {
    await signInAs(svc, 'viewer1');
    renderApp('/overview');
    expect(await screen.findByTestId('self-role')).toHaveTextContent('Viewer');
    expect(screen.getByTestId('self-role-id')).toHaveTextContent('iAAAAAAAAAAAAAAA');
    expect(screen.getByText('View members of the organization')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Administrative privileges/ })).toBeNull();
    expect(screen.queryByText('Create groups')).toBeNull();
  });
});

describe('overview of a custom role', () => {
  it('names the role (read from the roles list) in the account card and menu, with what it allows', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: 'Survey lead' });
    await setRolePrivileges(svc.orgId, id, ['portal:user:viewOrgUsers', 'features:user:fullEdit']);
    await updateUserRole(svc.orgId, { username: 'publisher1', role: id });
    await signInAs(svc, 'publisher1');
    const { user } = renderApp('/overview');
    await waitFor(() => expect(screen.getByTestId('self-role')).toHaveTextContent('Survey lead'));
    expect(screen.getByTestId('self-role-id')).toHaveTextContent(id);
    expect(screen.getByText('Edit with full control')).toBeInTheDocument();
    expect(screen.getByText('Edit features')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /account menu/i }));
    expect(await screen.findByText('publisher1 · Survey lead')).toBeInTheDocument();
  });
});

describe('privilege grouping', () => {
  it('groups by kind then area in catalogue order, and keeps unknown ids', () => {
    const groups = groupPrivileges(['portal:admin:viewUsers', 'portal:user:createGroup', 'portal:user:viewOrgUsers', 'x:unknown']);
    expect(groups.map((g) => `${g.kind}/${g.area}`)).toEqual(['general/members', 'general/groups', 'administrative/members', 'other/other']);
    expect(groups[2].privileges).toEqual([{ id: 'portal:admin:viewUsers', label: 'View all members' }]);
  });
});
