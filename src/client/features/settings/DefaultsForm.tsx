/** The form that edits the new-member defaults; its choices and saving come from useDefaultsForm. */
import { Alert, Button, Group, MultiSelect, SimpleGrid, Stack } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { describeError } from '../../api/index.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { LICENSE_SELECT_DATA } from '../../lib/licenses.ts';
import { NOT_SET } from './describeDefaults.ts';
import { USER_TYPE_LABELS } from './schemas.ts';
import { useDefaultsForm, type DefaultsFormOptions } from './useDefaultsForm.ts';

// Mantine hides a select's clear button from the keyboard and screen readers: here it is how one
// default is unset, so it is a named button in the tab order.
const clearButton = (what: string) => ({ 'aria-label': `Clear the default ${what}`, 'aria-hidden': false, tabIndex: 0 });

export function DefaultsForm({ groupsError, ...options }: DefaultsFormOptions & { groupsError?: unknown }) {
  const { current, onDone } = options;
  const { form, err, guard, saving, formError, licenseType, roleData, roleConflict, groupData, onSubmit } = useDefaultsForm(options);
  // Each default can be cleared on its own; the others stay as they are.
  const keep = (field: 'role' | 'userLicenseType' | 'userType', what: string) =>
    current[field] ? `Clear it and new members get no default ${what}; the other defaults stay.` : 'Leave empty to keep it unset.';

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New-member defaults">
      <Stack gap="md" maw={640}>
        {formError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The defaults were not saved" role="alert">
            {formError}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <ControlledSelect
            control={form.control}
            name="userLicenseType"
            label="User type"
            description={
              licenseType ? `${keep('userLicenseType', 'user type')} Roles it does not allow are not offered.` : keep('userLicenseType', 'user type')
            }
            placeholder={NOT_SET}
            data={LICENSE_SELECT_DATA}
            clearable
            clearButtonProps={clearButton('user type')}
            error={err('userLicenseType')}
            data-autofocus
          />
          <ControlledSelect
            control={form.control}
            name="role"
            label="Role"
            description={keep('role', 'role')}
            placeholder={NOT_SET}
            data={roleData}
            clearable
            clearButtonProps={clearButton('role')}
            error={err('role') ?? roleConflict ?? undefined}
          />
          <ControlledSelect
            control={form.control}
            name="userType"
            label="Apps"
            description={keep('userType', 'apps setting')}
            placeholder={NOT_SET}
            data={Object.entries(USER_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
            clearable
            clearButtonProps={clearButton('apps')}
            error={err('userType')}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="groups"
          render={({ field }) => (
            <MultiSelect
              label="Groups"
              description={
                groupsError
                  ? `The organization's groups could not be loaded (${describeError(groupsError)}).`
                  : 'New members join these groups of the organization.'
              }
              placeholder={field.value.length ? undefined : 'No groups'}
              data={groupData}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              searchable
              clearable
              nothingFoundMessage="No group of the organization matches"
              error={err('groups')}
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => guard.confirmDiscard(onDone)}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} disabled={!form.formState.isDirty}>
            Save defaults
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
