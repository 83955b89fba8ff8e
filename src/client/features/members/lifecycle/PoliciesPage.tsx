/**
 * Inactivity policies (`/members/policies`): the organization's policies, a new one, each with its
 * preview and switch. A portal without the lifecycle extras gets a note saying so, not an error.
 */
import { Anchor, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { InactivityPolicy } from '../../../api/memberLifecycle.ts';
import { policiesQuery } from '../../../api/queries/memberLifecycle.ts';
import { GuardedButton } from '../../../components/GuardedButton.tsx';
import { IconPlus } from '../../../components/icons.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../../components/states.tsx';
import { localOnly, usePortalCapabilities } from '../../../lib/capabilities.ts';
import { BASE_ROLE_LABELS, isBaseRole } from '../../../lib/roles.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { rolesQuery } from '../queries.ts';
import { managePoliciesPermission, viewLifecyclePermission } from './permissions.ts';
import { PolicyCard } from './PolicyCard.tsx';
import { PolicyFormModal } from './PolicyFormModal.tsx';

export default function PoliciesPage() {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const view = viewLifecyclePermission(user);
  const policies = useQuery({ ...policiesQuery(user.orgId), enabled: caps.localExtras && view.allowed });
  const roles = useQuery(rolesQuery(user.orgId));
  const [editing, setEditing] = useState<InactivityPolicy | 'new' | null>(null);
  const manage = localOnly(caps, 'inactivity policies', managePoliciesPermission(user));
  const roleName = (role: string) => (isBaseRole(role) ? BASE_ROLE_LABELS[role] : (roles.data?.roles.find((r) => r.id === role)?.name ?? role));

  const body = !caps.known ? (
    <LoadingState label="Loading…" />
  ) : !caps.localExtras ? (
    <EmptyPanel title="Not on this portal" description={caps.unavailable('inactivity policies')} />
  ) : !view.allowed ? (
    <EmptyPanel title="Not available to you" description={view.reason} />
  ) : policies.isPending ? (
    <LoadingState label="Loading inactivity policies…" />
  ) : policies.isError ? (
    <ErrorState error={policies.error} title="The inactivity policies could not be read" onRetry={() => policies.refetch()} />
  ) : policies.data.policies.length === 0 ? (
    <EmptyPanel
      title="No inactivity policies yet"
      description="A policy warns members who stopped signing in, then disables them or moves them to another role."
    />
  ) : (
    <Stack gap="md">
      {policies.data.policies.map((p) => (
        <PolicyCard key={p.id} policy={p} roleName={roleName} mayManage={manage.allowed} onEdit={() => setEditing(p)} />
      ))}
    </Stack>
  );

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/members" size="sm">
        ← All members
      </Anchor>
      <PageHeader
        title="Inactivity policies"
        description="Members who stop signing in are warned, then disabled or moved. Each policy shows who it would touch before you switch it on."
        actions={
          <GuardedButton permission={manage} leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New policy
          </GuardedButton>
        }
      />
      {body}
      <PolicyFormModal policy={editing} customRoles={roles.data?.roles} onClose={() => setEditing(null)} />
    </Stack>
  );
}
