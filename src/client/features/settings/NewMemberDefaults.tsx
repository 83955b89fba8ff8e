/**
 * The new-member defaults section: the current defaults, or the form that edits them, and "Clear
 * all" after seeing what changes. Only those who manage the defaults see them.
 */
import { Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/index.ts';
import { orgGroupsQuery } from '../../api/queries/groups.ts';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { userDefaultSettingsQuery } from '../../api/queries/userDefaultSettings.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconPencil, IconTrash } from '../../components/icons.tsx';
import { ErrorState } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { ClearDefaultsModal } from './ClearDefaultsModal.tsx';
import { DefaultsForm } from './DefaultsForm.tsx';
import { DefaultsSummary } from './DefaultsSummary.tsx';
import { describeDefaults } from './describeDefaults.ts';
import { manageDefaultsPermission } from './permissions.ts';
import { SettingsSection } from './SettingsSection.tsx';

export function NewMemberDefaults() {
  const user = useCurrentUser();
  const orgId = user.orgId;
  const permission = manageDefaultsPermission(user);
  // Only those who manage the defaults may read them (the service refuses others with 403), so the
  // page does not ask for them otherwise; a portal that refuses anyway is answered the same way.
  const defaults = useQuery({ ...userDefaultSettingsQuery(orgId), enabled: permission.allowed });
  const refused = !permission.allowed || (defaults.error instanceof ApiError && defaults.error.code === 403);
  const roles = useQuery({ ...orgRolesQuery(orgId), enabled: !refused });
  const groups = useQuery({ ...orgGroupsQuery(orgId), enabled: !refused });
  const [editing, setEditing] = useState(false);
  const [clearing, setClearing] = useState(false);
  const known = roles.data?.roles ?? [];
  const orgGroups = groups.data?.results ?? [];
  const rows = defaults.data ? describeDefaults(defaults.data, known, orgGroups) : [];
  const anySet = rows.some((r) => r.value !== null);

  return (
    <SettingsSection
      id="defaults-heading"
      title="New-member defaults"
      description="What a new member gets when the way they are added does not say otherwise."
      actions={
        editing ? null : (
          <>
            <GuardedButton
              permission={permission}
              variant="default"
              leftSection={<IconPencil size={16} />}
              onClick={() => setEditing(true)}
              disabled={!defaults.data}
            >
              Edit defaults
            </GuardedButton>
            <GuardedButton
              permission={permission}
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setClearing(true)}
              disabled={!anySet}
            >
              Clear all defaults
            </GuardedButton>
          </>
        )
      }
    >
      {refused ? (
        <Text size="sm" c="dimmed">
          {permission.allowed ? 'This portal does not show you the new-member defaults.' : permission.reason}
        </Text>
      ) : defaults.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the new-member defaults">
          <Skeleton h={16} />
          <Skeleton h={16} />
          <Skeleton h={16} w="60%" />
        </Stack>
      ) : defaults.isError ? (
        <ErrorState error={defaults.error} title="Could not load the new-member defaults" onRetry={() => defaults.refetch()} />
      ) : editing ? (
        <DefaultsForm
          current={defaults.data}
          roles={known}
          groups={orgGroups}
          groupsError={groups.isError ? groups.error : undefined}
          onDone={() => setEditing(false)}
        />
      ) : (
        <DefaultsSummary rows={rows} />
      )}
      <ClearDefaultsModal opened={clearing} onClose={() => setClearing(false)} rows={rows} />
    </SettingsSection>
  );
}
