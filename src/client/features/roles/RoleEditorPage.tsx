/**
 * One role: its name, description and privileges. Default administrators edit custom roles here (or
 * build a new one, from scratch or from another role); everyone else, and every built-in role,
 * sees exactly what the role allows, read-only. Saving first shows what will change.
 */
import { Alert, Anchor, Button, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { baseRoleForPrivileges } from '../../../shared/privileges.ts';
import type { RoleRecord } from '../../api/index.ts';
import { orgRolesQuery, roleQuery } from '../../api/queries/roles.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { HistorySection } from '../../components/HistorySection.tsx';
import { IconAlert, IconArrowLeft, IconColumns, IconLock, IconTrash } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PrivilegeChecklist } from '../../components/PrivilegeChecklist.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { baseRoleLabel, isBaseRole } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CompareRolesModal } from './CompareRolesModal.tsx';
import { DeleteRoleModal } from './DeleteRoleModal.tsx';
import { changeRolePermission } from './permissions.ts';
import { baseRoleRecord } from './roleOptions.ts';
import { RoleDetailsCard } from './RoleDetailsCard.tsx';
import { RolePendingBar } from './RolePendingBar.tsx';
import { RoleReviewModal } from './RoleReviewModal.tsx';
import { useRoleEditor, type EditedRole } from './useRoleEditor.ts';

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

function RoleEditor({ role, allRoles, baseRole = false }: { role?: EditedRole; allRoles?: RoleRecord[]; baseRole?: boolean }) {
  const state = useRoleEditor(role, allRoles);
  const {
    user,
    navigate,
    carried,
    permission,
    readOnly,
    selection,
    setSelection,
    comparing,
    setComparing,
    deleting,
    setDeleting,
    compareOptions,
    onReview,
    title,
    guard,
  } = state;
  // From the role itself (not the state's copy), so that the compiler knows an existing role is there.
  const isNew = !role;
  const saved = role?.privileges ?? [];

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
          <RoleDetailsCard state={state} />

          <section aria-labelledby="privileges-heading">
            <Title order={2} fz="lg" id="privileges-heading" mb="sm">
              Privileges
            </Title>
            <PrivilegeChecklist value={selection} onChange={setSelection} readOnly={readOnly} label={`Privileges of ${title}`} />
          </section>

          {readOnly ? null : <RolePendingBar state={state} />}
        </Stack>
      </form>
      {role && !baseRole ? <HistorySection id={role.id} type="r" name={`the role “${role.name}”`} heading /> : null}

      <RoleReviewModal role={role} state={state} />

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
