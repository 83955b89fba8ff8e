/**
 * One role: its name, description and privileges. Default administrators edit custom roles here (or
 * build a new one, from scratch or from another role); everyone else, and every built-in role,
 * sees exactly what the role allows, read-only. Saving first shows what will change.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Card, Group, List, Modal, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { LIMITS } from '../../../shared/limits.ts';
import { baseRoleForPrivileges } from '../../../shared/privileges.ts';
import { describeError, type RoleRecord } from '../../api/index.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { HistorySection } from '../../components/HistorySection.tsx';
import { IconAlert, IconArrowLeft, IconColumns, IconLock, IconTrash } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PrivilegeChecklist } from '../../components/PrivilegeChecklist.tsx';
import { PrivilegeDiffView } from '../../components/PrivilegeSets.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { useDirtyGuard } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { privilegeLabel } from '../../lib/privileges.ts';
import { diffPrivileges, effectivePrivileges, missingRequirements, sortByCatalogue, tickPrivileges } from '../../lib/privilegeSets.ts';
import { baseRoleLabel, isBaseRole } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CompareRolesModal } from './CompareRolesModal.tsx';
import { DeleteRoleModal } from './DeleteRoleModal.tsx';
import { PrivilegesNotSavedError, useSaveRole } from './mutations.ts';
import { changeRolePermission, manageRolesPermission } from './permissions.ts';
import { orgRolesQuery, roleQuery } from '../../api/queries/roles.ts';
import { baseRoleRecord, roleOptions, toSelectData } from './roleOptions.ts';
import { ROLE_DETAIL_FIELDS, roleDetailsSchema, type RoleDetailsInput, type RoleDetailsValues } from './schemas.ts';

/** Carried to a new role's page when its privileges could not be saved along with it. */
interface EditorState {
  privileges?: string[];
  notice?: string;
}

function BackToRoles() {
  return (
    <Anchor component={Link} to="/roles" size="sm" mb="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <IconArrowLeft size={14} /> Roles
    </Anchor>
  );
}

export default function RoleEditorPage() {
  const { roleId } = useParams();
  const user = useCurrentUser();
  const base = roleId && isBaseRole(roleId) ? roleId : null;
  const role = useQuery({ ...roleQuery(user.orgId, roleId ?? ''), enabled: !!roleId && !base });
  const all = useQuery(orgRolesQuery(user.orgId));
  if (base) return <RoleEditor key={base} role={baseRoleRecord(base)} allRoles={all.data?.roles} baseRole />;

  if (roleId && role.isPending) return <LoadingState label="Loading role…" />;
  if (roleId && role.isError) {
    return (
      <>
        <BackToRoles />
        <ErrorState error={role.error} title="Could not load the role" onRetry={() => role.refetch()} />
      </>
    );
  }
  const listed = all.data?.roles.find((r) => r.id === roleId);
  const record = role.data ? { ...role.data, builtIn: role.data.builtIn ?? listed?.builtIn, memberCount: listed?.memberCount } : undefined;
  return <RoleEditor key={roleId ?? 'new'} role={record} allRoles={all.data?.roles} />;
}

function RoleEditor({ role, allRoles, baseRole = false }: { role?: RoleRecord & { privileges: string[] }; allRoles?: RoleRecord[]; baseRole?: boolean }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const carried = (location.state ?? {}) as EditorState;
  const isNew = !role;
  const permission = role ? changeRolePermission(user, role) : manageRolesPermission(user);
  const readOnly = !permission.allowed;

  const saved = role?.privileges ?? [];
  const [selection, setSelection] = useState<string[]>(() => carried.privileges ?? saved);
  const [startFrom, setStartFrom] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<RoleDetailsValues | null>(null);
  const [comparing, setComparing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const save = useSaveRole(user.orgId);

  const form = useForm<RoleDetailsInput, unknown, RoleDetailsValues>({
    resolver: zodResolver(roleDetailsSchema),
    defaultValues: { name: role?.name ?? '', description: role?.description ?? '' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const err = (field: keyof RoleDetailsInput) => (errors[field]?.message ? sentence(errors[field].message) : undefined);

  const diff = diffPrivileges(saved, selection);
  const privilegesChanged = diff.added.length > 0 || diff.removed.length > 0;
  const detailsChanged = isNew || form.formState.isDirty;
  const changed = privilegesChanged || detailsChanged;
  // Typed details or ticked privileges not saved: leaving the editor asks first.
  const guard = useDirtyGuard(!readOnly && (form.formState.isDirty || privilegesChanged));
  const options = roleOptions(allRoles?.filter((r) => r.id !== role?.id));
  const compareOptions = [
    {
      value: 'this',
      label: role ? `${role.name}${privilegesChanged ? ' (as edited)' : ''}` : 'New role (as edited)',
      privileges: selection,
      group: 'This role',
    },
    ...options,
  ];

  const discard = () => {
    form.reset();
    setSelection(saved);
    setStartFrom(null);
  };

  const onReview = form.handleSubmit((values) => setReviewing(values));

  const onSave = () => {
    if (!reviewing) return;
    const values = reviewing;
    save.mutate(
      {
        roleId: role?.id,
        details: detailsChanged ? { name: values.name, description: values.description } : undefined,
        privileges: privilegesChanged || (isNew && selection.length) ? selection : undefined,
      },
      {
        onSuccess: ({ roleId, created }) => {
          notifications.show({
            color: 'green',
            title: created ? 'Role created' : 'Role saved',
            message: `“${values.name}” ${created ? 'was created' : 'was saved'}.`,
          });
          setReviewing(null);
          guard.release();
          if (created) void navigate(`/roles/${encodeURIComponent(roleId)}`, { replace: true });
          else form.reset(values);
        },
        onError: (error) => {
          if (error instanceof PrivilegesNotSavedError) {
            setReviewing(null);
            guard.release();
            void navigate(`/roles/${encodeURIComponent(error.roleId)}`, {
              replace: true,
              state: {
                privileges: selection,
                notice: `The role was created, but its privileges were not saved: ${describeError(error.cause)} Review them and save again.`,
              } satisfies EditorState,
            });
            return;
          }
          const left = applyServerErrors(error, ROLE_DETAIL_FIELDS, form.setError);
          // A problem placed beside a field is read there: back to editing.
          if (left === null) setReviewing(null);
        },
      },
    );
  };

  const title = role ? role.name : 'New role';
  const heldBy = role?.memberCount ?? 0;
  const wasBase = baseRoleForPrivileges(saved);
  const willBe = baseRoleForPrivileges(selection);
  // Granted privileges that lack one they need (a role saved elsewhere): the portal refuses them.
  const granted = effectivePrivileges(selection);
  const unmet = sortByCatalogue(granted).flatMap((id) => {
    const missing = missingRequirements(id, granted);
    return missing.length ? [{ id, missing }] : [];
  });

  return (
    <>
      <BackToRoles />
      <PageHeader
        title={title}
        description={
          isNew
            ? 'Pick the privileges the role grants. Privileges that a ticked one needs or includes are ticked for you.'
            : baseRole
              ? `Default role · ${role.description}`
              : `${role.builtIn ? 'Built-in role' : 'Custom role'} · counts as ${baseRoleLabel(baseRoleForPrivileges(saved))}${typeof role.memberCount === 'number' ? ` · held by ${role.memberCount} member${role.memberCount === 1 ? '' : 's'}` : ''}`
        }
        actions={
          <>
            <Button variant="default" leftSection={<IconColumns size={16} />} onClick={() => setComparing(true)}>
              Compare with another role
            </Button>
            {role ? (
              <GuardedButton
                permission={changeRolePermission(user, role, 'delete')}
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDeleting(true)}
              >
                Delete role
              </GuardedButton>
            ) : null}
          </>
        }
      />

      {readOnly ? (
        <Alert color="gray" variant="light" icon={<IconLock />} title="Read-only" mb="md" role="status">
          {!permission.allowed ? permission.reason : ''} This is exactly what the role allows.
        </Alert>
      ) : null}
      {carried.notice ? (
        <Alert color="orange" variant="light" icon={<IconAlert />} title="Privileges not saved" mb="md" role="alert">
          {carried.notice}
        </Alert>
      ) : null}

      <form onSubmit={onReview} noValidate aria-label={isNew ? 'New role' : `Edit role ${role.name}`}>
        <Stack gap="lg">
          <Card withBorder radius="md" padding="lg">
            <SimpleGrid cols={{ base: 1, md: isNew ? 2 : 1 }} spacing="md">
              <Stack gap="md">
                <CountedTextInput
                  label="Name"
                  required
                  readOnly={readOnly}
                  error={err('name')}
                  data-autofocus
                  autoFocus={isNew}
                  {...form.register('name')}
                  max={LIMITS.roleNameChars}
                />
                <CountedTextarea
                  label="Description"
                  readOnly={readOnly}
                  autosize
                  minRows={2}
                  maxRows={5}
                  error={err('description')}
                  {...form.register('description')}
                  max={LIMITS.roleDescriptionChars}
                />
              </Stack>
              {isNew ? (
                <Select
                  label="Start from"
                  description="Tick the privileges of an existing role, then change what you need."
                  placeholder="Nothing ticked"
                  data={toSelectData(options)}
                  value={startFrom}
                  onChange={(v) => {
                    setStartFrom(v);
                    setSelection([...(options.find((o) => o.value === v)?.privileges ?? [])]);
                  }}
                  clearable
                  searchable
                />
              ) : null}
            </SimpleGrid>
          </Card>

          <section aria-labelledby="privileges-heading">
            <Title order={2} fz="lg" id="privileges-heading" mb="sm">
              Privileges
            </Title>
            <PrivilegeChecklist value={selection} onChange={setSelection} readOnly={readOnly} label={`Privileges of ${title}`} />
          </section>

          {readOnly ? null : (
            <Paper withBorder shadow="md" radius="md" p="sm" pos="sticky" bottom={12} style={{ zIndex: 5 }}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Text size="sm" aria-live="polite" data-testid="pending-changes" style={{ minWidth: 0 }}>
                  {privilegesChanged
                    ? `${diff.added.length} privilege${diff.added.length === 1 ? '' : 's'} added, ${diff.removed.length} removed`
                    : 'Privileges unchanged'}
                  {!isNew && form.formState.isDirty ? ' · details changed' : ''}
                </Text>
                <Group gap="sm" wrap="nowrap">
                  <Button variant="default" onClick={discard} disabled={!changed || isNew} visibleFrom="sm">
                    Discard changes
                  </Button>
                  <Button type="submit" disabled={!changed}>
                    Review and save
                  </Button>
                </Group>
              </Group>
            </Paper>
          )}
        </Stack>
      </form>
      {role && !baseRole ? <HistorySection id={role.id} type="r" name={`the role “${role.name}”`} heading /> : null}

      <Modal opened={reviewing !== null} onClose={() => setReviewing(null)} title={isNew ? 'Create this role?' : 'Save these changes?'} size="xl" centered>
        {reviewing ? (
          <Stack gap="md" aria-label="Changes to save">
            {isNew ? (
              <Text size="sm">
                A new role <strong>{reviewing.name}</strong> will be created{reviewing.description ? ` (“${reviewing.description}”)` : ''}.
              </Text>
            ) : form.formState.isDirty ? (
              <Stack gap={2}>
                {reviewing.name !== role.name ? (
                  <Text size="sm">
                    Name: {role.name} → <strong>{reviewing.name}</strong>
                  </Text>
                ) : null}
                {reviewing.description !== (role.description ?? '') ? (
                  <Text size="sm">Description: {reviewing.description ? `“${reviewing.description}”` : 'removed'}</Text>
                ) : null}
              </Stack>
            ) : null}
            <Title order={3} fz="md">
              Privileges
            </Title>
            <PrivilegeDiffView diff={diff} />
            {isNew || (privilegesChanged && wasBase !== willBe) ? (
              <Alert color={willBe === 'org_admin' ? 'orange' : 'blue'} variant="light" title="What members with this role count as">
                {isNew ? baseRoleLabel(willBe) : `${baseRoleLabel(wasBase)} → ${baseRoleLabel(willBe)}`}
                {willBe === 'org_admin' ? '. Administrative privileges make the role an administrator role.' : '.'}
              </Alert>
            ) : null}
            {unmet.length ? (
              // Only a role saved elsewhere (or before this rule) gets here: the checklist ticks what a
              // privilege needs. The portal refuses it, so saving waits for the one-click fix.
              <Alert
                color="orange"
                variant="light"
                icon={<IconAlert />}
                title="Some privileges need others that are not granted"
                data-testid="unmet-requirements"
              >
                <List size="sm" spacing={2}>
                  {unmet.map((u) => (
                    <List.Item key={u.id}>
                      {privilegeLabel(u.id)} needs {u.missing.map(privilegeLabel).join(', ')}
                    </List.Item>
                  ))}
                </List>
                <Button mt="sm" size="xs" variant="light" color="orange" onClick={() => setSelection(tickPrivileges(selection, selection).next)}>
                  Tick what they need
                </Button>
              </Alert>
            ) : null}
            {privilegesChanged && heldBy > 0 ? (
              <Text size="sm" c="dimmed">
                {heldBy} member{heldBy === 1 ? ' holds' : 's hold'} this role; their privileges change at once.
              </Text>
            ) : null}
            {save.isError && !(save.error instanceof PrivilegesNotSavedError) ? (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The role was not saved" role="alert">
                {describeError(save.error)}
              </Alert>
            ) : null}
            <DialogFooter>
              <Button variant="default" onClick={() => setReviewing(null)}>
                Back to editing
              </Button>
              <Button onClick={onSave} loading={save.isPending} disabled={unmet.length > 0} data-autofocus>
                {isNew ? 'Create role' : 'Save role'}
              </Button>
            </DialogFooter>
          </Stack>
        ) : null}
      </Modal>

      <CompareRolesModal opened={comparing} onClose={() => setComparing(false)} options={compareOptions} initialA="this" />
      {role ? (
        <DeleteRoleModal
          role={deleting ? role : null}
          onClose={() => setDeleting(false)}
          onDeleted={() => {
            guard.release();
            void navigate('/roles', { replace: true });
          }}
        />
      ) : null}
    </>
  );
}
