/** The organization's group limits: how many members from other organizations one group may hold. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Group, NumberInput, Skeleton, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { portalQuery } from '../../api/queries/portal.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ErrorState } from '../../components/states.tsx';
import { capabilitiesOf } from '../../lib/capabilities.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import type { Permission } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useUpdateOrgSettings } from './mutations.ts';
import { orgSettingsPermission } from './permissions.ts';
import { orgSettingsSchema, type OrgSettingsInput, type OrgSettingsValues } from './schemas.ts';
import { SettingsSection } from './SettingsSection.tsx';

export function GroupSettings() {
  const user = useCurrentUser();
  const portal = useQuery(portalQuery());
  const permission = orgSettingsPermission(user);
  return (
    <SettingsSection id="group-settings-heading" title="Groups" description="Limits that apply to every group of the organization.">
      {portal.isPending ? (
        <Skeleton h={36} maw={320} />
      ) : portal.isError ? (
        <ErrorState error={portal.error} title="Could not load the organization" onRetry={() => portal.refetch()} />
      ) : !capabilitiesOf(portal.data).localExtras ? (
        // A local setting: another portal neither reports nor takes it.
        <Text size="sm" c="dimmed">
          {capabilitiesOf(portal.data).unavailable('a limit on members from other organizations per group')}
        </Text>
      ) : (
        <ExternalMembersForm key={portal.data.maxExternalMembersPerGroup} current={portal.data.maxExternalMembersPerGroup} permission={permission} />
      )}
    </SettingsSection>
  );
}

function ExternalMembersForm({ current, permission }: { current?: number; permission: Permission }) {
  const user = useCurrentUser();
  const update = useUpdateOrgSettings(user.orgId);
  const form = useForm<OrgSettingsInput, unknown, OrgSettingsValues>({
    resolver: zodResolver(orgSettingsSchema),
    defaultValues: { maxExternalMembersPerGroup: current ?? '' },
  });
  const error = form.formState.errors.maxExternalMembersPerGroup?.message;
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      { maxExternalMembersPerGroup: values.maxExternalMembersPerGroup },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            title: 'Setting saved',
            message: `A group may now hold ${values.maxExternalMembersPerGroup} members from other organizations.`,
          }),
        onError: (err) => {
          const left = applyServerErrors(err, ['maxExternalMembersPerGroup'] as const, form.setError);
          if (left) notifications.show({ color: 'red', title: 'Setting not saved', message: left });
        },
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Group settings">
      <Group align="flex-end" gap="sm">
        <Controller
          control={form.control}
          name="maxExternalMembersPerGroup"
          render={({ field }) => (
            <NumberInput
              label="Members from other organizations per group"
              description="At most this many members of other organizations can be in one group."
              min={0}
              max={100_000}
              allowDecimal={false}
              allowNegative={false}
              readOnly={!permission.allowed}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={error ? sentence(error) : undefined}
              w={420}
            />
          )}
        />
        <GuardedButton permission={permission} type="submit" loading={update.isPending} disabled={!form.formState.isDirty}>
          Save
        </GuardedButton>
      </Group>
    </form>
  );
}
