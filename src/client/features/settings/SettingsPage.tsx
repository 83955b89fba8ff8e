/**
 * Settings for administrators: the new-member defaults (role, user type, groups, account type) —
 * view, edit, clear all after seeing what changes — and how many members from other organizations
 * one group may hold.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Card, Group, Modal, MultiSelect, NumberInput, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { baseRoleForPrivileges } from '../../../shared/privileges.ts';
import { rolePrivileges } from '../../../shared/roleGrant.ts';
import { userTypeNote, userTypeRefusal } from '../../../shared/userTypes.ts';
import { ApiError, describeError, type GroupRecord, type RoleRecord, type UserDefaultSettings } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconAlert, IconPencil, IconTrash } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ErrorState } from '../../components/states.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import type { Permission } from '../../lib/privileges.ts';
import { LICENSE_SELECT_DATA, licenseLabel } from '../../lib/licenses.ts';
import { BASE_ROLE_LABELS, isBaseRole, roleLabel } from '../../lib/roles.ts';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { grantRolePermission } from '../../lib/roleGrant.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useClearDefaults, useSetDefaults, useUpdateOrgSettings } from './mutations.ts';
import { manageDefaultsPermission, orgSettingsPermission } from './permissions.ts';
import { portalQuery } from '../../api/queries/portal.ts';
import { capabilitiesOf } from '../../lib/capabilities.ts';
import { orgGroupsQuery } from '../../api/queries/groups.ts';
import { userDefaultSettingsQuery } from '../../api/queries/userDefaultSettings.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { useDirtyGuard } from '../../components/useDirtyGuard.tsx';
import {
  DEFAULTS_FIELDS,
  defaultsSchema,
  defaultsToForm,
  orgSettingsSchema,
  USER_TYPE_LABELS,
  type DefaultsInput,
  type DefaultsValues,
  type OrgSettingsInput,
  type OrgSettingsValues,
} from './schemas.ts';

const NOT_SET = 'Not set';

/** Each default in words, for the summary and the before/after of "Clear all". */
function describeDefaults(d: UserDefaultSettings, roles: readonly RoleRecord[], groups: readonly GroupRecord[]) {
  const groupTitle = (id: string) => groups.find((g) => g.id === id)?.title ?? id;
  return [
    {
      key: 'role',
      label: 'Role',
      value: d.role ? roleLabel(d.role.startsWith('org_') ? { role: d.role } : { role: 'org_user', roleId: d.role }, roles) : null,
    },
    { key: 'userLicenseType', label: 'User type', value: d.userLicenseType ? licenseLabel(d.userLicenseType) : null },
    { key: 'groups', label: 'Groups', value: d.groups.length ? d.groups.map(groupTitle) : null },
    { key: 'userType', label: 'Apps', value: d.userType ? USER_TYPE_LABELS[d.userType] : null },
  ] as const;
}

function Value({ value }: { value: string | readonly string[] | null }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed">
        {NOT_SET}
      </Text>
    );
  if (typeof value === 'string')
    return (
      <Text size="sm" fw={500}>
        {value}
      </Text>
    );
  return (
    <Group gap={4} justify="flex-end">
      {value.map((v) => (
        <Badge key={v} variant="light" tt="none">
          {v}
        </Badge>
      ))}
    </Group>
  );
}

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

function Section({ id, title, description, actions, children }: { id: string; title: string; description: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz="lg" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {actions ? <Group gap="sm">{actions}</Group> : null}
      </Group>
      {children}
    </Card>
  );
}

function NewMemberDefaults() {
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
    <Section
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
        <Table aria-label="Current new-member defaults" verticalSpacing="xs" maw={640}>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                <Table.Th w={160} fw={500} c="dimmed">
                  {r.label}
                </Table.Th>
                <Table.Td ta="right">
                  <Value value={r.value} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ClearDefaultsModal opened={clearing} onClose={() => setClearing(false)} rows={rows} />
    </Section>
  );
}

function DefaultsForm({
  current,
  roles,
  groups,
  groupsError,
  onDone,
}: {
  current: UserDefaultSettings;
  roles: readonly RoleRecord[];
  groups: readonly GroupRecord[];
  groupsError?: unknown;
  onDone: () => void;
}) {
  const user = useCurrentUser();
  const save = useSetDefaults(user.orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<DefaultsInput, unknown, DefaultsValues>({ resolver: zodResolver(defaultsSchema), defaultValues: defaultsToForm(current) });
  const { errors } = form.formState;
  // Cancel and leaving the page ask before the choices made here are thrown away.
  const guard = useDirtyGuard(form.formState.isDirty);
  const err = (field: keyof DefaultsInput) => (errors[field]?.message ? sentence(errors[field].message) : undefined);

  // The user type is chosen first; the roles it does not allow are offered disabled, with why
  // (src/shared/userTypes.ts, the rule the portal applies too).
  const licenseType = useWatch({ control: form.control, name: 'userLicenseType' });
  const typeRefusal = (value: string, name: string) => {
    if (!licenseType) return null;
    const privileges = isBaseRole(value) ? rolePrivileges(value, null) : roles.find((r) => r.id === value)?.privileges;
    // A custom role whose privileges could not be read is left to the portal to decide.
    return privileges ? userTypeRefusal(licenseType, { name, privileges }) : null;
  };
  // Administrator roles are never defaults: base Administrator is left out, custom ones are shown
  // disabled. So is a role holding privileges the signed-in member lacks (docs/security.md, "Role
  // assignment"), unless it already is the default: keeping it grants nothing.
  const choice = (value: string, label: string) => {
    const grant = value === current.role ? null : grantRolePermission(user, value, roles);
    if (grant && !grant.allowed) return { value, label: `${label} (${grant.note})`, disabled: true };
    return typeRefusal(value, label) ? { value, label: `${label} (${userTypeNote(licenseType)})`, disabled: true } : { value, label };
  };
  const roleData = [
    { group: 'Base roles', items: (['org_publisher', 'org_user'] as const).map((r) => choice(r, BASE_ROLE_LABELS[r])) },
    ...(roles.length
      ? [
          {
            group: 'Custom roles',
            // `roles` is the list prop, not a query: an array copy, not an object rest.
            // eslint-disable-next-line @tanstack/query/no-rest-destructuring
            items: [...roles]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((r) => {
                const admin = baseRoleForPrivileges(r.privileges ?? []) === 'org_admin';
                return admin ? { value: r.id, label: `${r.name} (administrator role)`, disabled: true } : choice(r.id, r.name);
              }),
          },
        ]
      : []),
  ];
  const roleValue = useWatch({ control: form.control, name: 'role' });
  const roleName = isBaseRole(roleValue) ? BASE_ROLE_LABELS[roleValue] : (roles.find((r) => r.id === roleValue)?.name ?? roleValue);
  // The chosen role no longer fits a user type chosen after it: said at once, beside the role.
  const roleConflict = roleValue ? typeRefusal(roleValue, roleName) : null;
  // A default group must be one the member could add members to themselves (the portal refuses
  // others): its owner or a manager, or a holder of portal:admin:assignToGroups.
  const mayAddTo = (g: GroupRecord) =>
    user.privileges.includes('portal:admin:assignToGroups') ||
    current.groups.includes(g.id) ||
    ['owner', 'admin'].includes(g.userMembership?.memberType ?? 'none');
  const groupData = [
    ...groups.map((g) =>
      mayAddTo(g) ? { value: g.id, label: g.title } : { value: g.id, label: `${g.title} (only its managers add members)`, disabled: true },
    ),
    // A default group the list did not include still shows (by id).
    ...current.groups.filter((id) => !groups.some((g) => g.id === id)).map((id) => ({ value: id, label: id })),
  ];
  // Each default can be cleared on its own; the others stay as they are. Mantine hides a select's
  // clear button from the keyboard and screen readers: here it is how one default is unset, so it
  // is a named button in the tab order.
  const clearButton = (what: string) => ({ 'aria-label': `Clear the default ${what}`, 'aria-hidden': false, tabIndex: 0 });
  // Each default can be cleared on its own; the others stay as they are.
  const keep = (field: 'role' | 'userLicenseType' | 'userType', what: string) =>
    current[field] ? `Clear it and new members get no default ${what}; the other defaults stay.` : 'Leave empty to keep it unset.';

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    if (roleConflict) {
      form.setError('role', { message: roleConflict });
      return;
    }
    save.mutate(
      // The whole set, a cleared default as an empty value: the local portal clears that one, and a
      // portal that replaces every default on each call (as its own settings page does) means the same.
      { role: values.role ?? '', userLicenseType: values.userLicenseType ?? '', userType: values.userType ?? '', groups: values.groups },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', title: 'Defaults saved', message: 'New members get these from now on.' });
          onDone();
        },
        onError: (error) => setFormError(applyServerErrors(error, DEFAULTS_FIELDS, form.setError)),
      },
    );
  });

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
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            Save defaults
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ClearDefaultsModal({ opened, onClose, rows }: { opened: boolean; onClose: () => void; rows: ReturnType<typeof describeDefaults> | readonly never[] }) {
  const user = useCurrentUser();
  const clear = useClearDefaults(user.orgId);
  const close = () => {
    clear.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Clear all new-member defaults?" size="lg" centered>
      <Stack gap="md">
        <Text size="sm">
          New members then start as Users with the portal's own defaults, in no groups. Members already in the organization keep what they have.
        </Text>
        <Table aria-label="Before and after" verticalSpacing="xs" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Default</Table.Th>
              <Table.Th>Now</Table.Th>
              <Table.Th>After clearing</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                <Table.Td>{r.label}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={r.value === null ? 'dimmed' : undefined}>
                    {r.value === null ? NOT_SET : typeof r.value === 'string' ? r.value : r.value.join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {NOT_SET}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {clear.isError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The defaults were not cleared" role="alert">
            {describeError(clear.error)}
          </Alert>
        ) : null}
        <ConfirmActions
          onCancel={close}
          confirmLabel="Clear all defaults"
          loading={clear.isPending}
          onConfirm={() =>
            clear.mutate(undefined, {
              onSuccess: () => {
                notifications.show({ color: 'green', title: 'Defaults cleared', message: 'No new-member defaults are set.' });
                close();
              },
            })
          }
        />
      </Stack>
    </Modal>
  );
}

function GroupSettings() {
  const user = useCurrentUser();
  const portal = useQuery(portalQuery());
  const permission = orgSettingsPermission(user);
  return (
    <Section id="group-settings-heading" title="Groups" description="Limits that apply to every group of the organization.">
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
    </Section>
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
