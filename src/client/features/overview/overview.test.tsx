import { screen, within } from '@testing-library/react';
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

describe('privilege grouping', () => {
  it('groups by kind then area in catalogue order, and keeps unknown ids', () => {
    const groups = groupPrivileges(['portal:admin:viewUsers', 'portal:user:createGroup', 'portal:user:viewOrgUsers', 'x:unknown']);
    expect(groups.map((g) => `${g.kind}/${g.area}`)).toEqual(['general/members', 'general/groups', 'administrative/members', 'other/other']);
    expect(groups[2].privileges).toEqual([{ id: 'portal:admin:viewUsers', label: 'View all members' }]);
  });
});
