/**
 * The state of the role editor: the ticked privileges against the saved ones, the name and
 * description, the review before saving, and saving (a new role whose privileges were not saved
 * goes to its own page with them still ticked and a notice why).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { baseRoleForPrivileges } from '../../../shared/privileges.ts';
import { describeError, type RoleRecord } from '../../api/index.ts';
import { useDirtyGuard } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { diffPrivileges, effectivePrivileges, missingRequirements, sortByCatalogue } from '../../lib/privilegeSets.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { PrivilegesNotSavedError, useSaveRole } from './mutations.ts';
import { changeRolePermission, manageRolesPermission } from './permissions.ts';
import { roleOptions } from './roleOptions.ts';
import { ROLE_DETAIL_FIELDS, roleDetailsSchema, type RoleDetailsInput, type RoleDetailsValues } from './schemas.ts';

/** Carried to a new role's page when its privileges could not be saved along with it. */
interface EditorState {
  privileges?: string[];
  notice?: string;
}

export type EditedRole = RoleRecord & { privileges: string[] };

export function useRoleEditor(role: EditedRole | undefined, allRoles: RoleRecord[] | undefined) {
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

  return {
    user,
    navigate,
    carried,
    isNew,
    permission,
    readOnly,
    selection,
    setSelection,
    startFrom,
    setStartFrom,
    reviewing,
    setReviewing,
    comparing,
    setComparing,
    deleting,
    setDeleting,
    save,
    form,
    err,
    diff,
    privilegesChanged,
    changed,
    guard,
    options,
    compareOptions,
    discard,
    onReview,
    onSave,
    title,
    heldBy,
    wasBase,
    willBe,
    unmet,
  };
}

export type RoleEditorState = ReturnType<typeof useRoleEditor>;
