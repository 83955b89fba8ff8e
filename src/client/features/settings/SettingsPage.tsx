/**
 * Settings for administrators: the new-member defaults (role, user type, groups, account type) —
 * view, edit, clear all after seeing what changes — and how many members from other organizations
 * one group may hold.
 */
import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { GroupSettings } from './GroupSettings.tsx';
import { NewMemberDefaults } from './NewMemberDefaults.tsx';

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Organization settings for administrators." />
      <Stack gap="xl">
        <NewMemberDefaults />
        <GroupSettings />
      </Stack>
    </>
  );
}
