/**
 * The group form's choices beyond its text: who can see the group, membership rules, who can be in
 * it, and how its content is sorted. Choices needing privileges the member lacks are disabled with why.
 */
import { Checkbox, Radio, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useCurrentUser } from '../../lib/session.ts';
import { accessPermission, leavingDisallowedPermission } from '../../lib/groupPermissions.ts';
import type { GroupFormState } from './useGroupForm.ts';

const ACCESS_CHOICES = [
  { value: 'private', label: 'Private', description: 'Only its members can find and see it.' },
  { value: 'org', label: 'Organization', description: 'Members of your organization can find and see it.' },
  { value: 'public', label: 'Everyone (public)', description: 'Anyone can find and see it.' },
] as const;

const JOIN_CHOICES = [
  { value: 'none', label: 'Anyone', description: 'Members of your organization and of other organizations can be added.' },
  { value: 'org', label: 'Only members of your organization', description: 'Nobody from another organization can join or be added.' },
  {
    value: 'collaboration',
    label: 'Your organization and partnered organizations',
    description: 'Members of organizations in a partnered collaboration with yours can join too.',
  },
] as const;

const SORT_FIELDS = [
  { value: 'title', label: 'Title' },
  { value: 'owner', label: 'Owner' },
  { value: 'avgRating', label: 'Rating' },
  { value: 'numViews', label: 'Views' },
  { value: 'created', label: 'Date added' },
  { value: 'modified', label: 'Date changed' },
];

export function GroupVisibilityFields({ form, err }: Pick<GroupFormState, 'form' | 'err'>) {
  const user = useCurrentUser();
  const leaving = leavingDisallowedPermission(user);
  return (
    <>
      <Controller
        control={form.control}
        name="access"
        render={({ field }) => (
          <Radio.Group label="Who can see the group" value={field.value} onChange={field.onChange} error={err('access')}>
            <Stack gap="xs" mt={6}>
              {ACCESS_CHOICES.map((choice) => {
                const permission = accessPermission(user, choice.value);
                return (
                  <Radio
                    key={choice.value}
                    value={choice.value}
                    label={choice.label}
                    description={permission.allowed ? choice.description : `${choice.description} ${permission.reason}`}
                    disabled={!permission.allowed && field.value !== choice.value}
                  />
                );
              })}
            </Stack>
          </Radio.Group>
        )}
      />
      <Stack gap="xs">
        <Text size="sm" fw="var(--mantine-font-weight-medium)">
          Membership
        </Text>
        <Checkbox label="Invitation only" description="People join only when a manager adds or invites them." {...form.register('isInvitationOnly')} />
        <Checkbox label="Only managers can share content" description="A view-only group: members see what managers share." {...form.register('isViewOnly')} />
        <Checkbox label="Hide the member list" description="Only managers see who is in the group." {...form.register('hiddenMembers')} />
        <Checkbox
          label="Members cannot leave"
          description={leaving.allowed ? 'Only managers can remove members.' : `Only managers can remove members. ${leaving.reason}`}
          disabled={!leaving.allowed && !form.getValues('leavingDisallowed')}
          error={err('leavingDisallowed')}
          {...form.register('leavingDisallowed')}
        />
      </Stack>
      <Controller
        control={form.control}
        name="membershipAccess"
        render={({ field }) => (
          <Radio.Group label="Who can be in the group" value={field.value} onChange={field.onChange} error={err('membershipAccess')}>
            <Stack gap="xs" mt={6}>
              {JOIN_CHOICES.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
              ))}
            </Stack>
          </Radio.Group>
        )}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Controller
          control={form.control}
          name="sortField"
          render={({ field }) => (
            <Select
              label="Sort the group's content by"
              data={SORT_FIELDS}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              allowDeselect={false}
              ref={field.ref}
            />
          )}
        />
        <Controller
          control={form.control}
          name="sortOrder"
          render={({ field }) => (
            <Select
              label="Order"
              data={[
                { value: 'asc', label: 'Ascending' },
                { value: 'desc', label: 'Descending' },
              ]}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              allowDeselect={false}
              ref={field.ref}
            />
          )}
        />
      </SimpleGrid>
    </>
  );
}
