/**
 * The state of the new-member defaults form: the choices it offers (with why some are disabled),
 * the role that no longer fits the chosen user type, and saving the whole set.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { baseRoleForPrivileges } from '../../../shared/privileges.ts';
import { rolePrivileges } from '../../../shared/roleGrant.ts';
import { userTypeNote, userTypeRefusal } from '../../../shared/userTypes.ts';
import type { GroupRecord, RoleRecord, UserDefaultSettings } from '../../api/index.ts';
import { useDirtyGuard } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { grantRolePermission } from '../../lib/roleGrant.ts';
import { BASE_ROLE_LABELS, isBaseRole } from '../../lib/roles.ts';
import { canOn } from '../../lib/can.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useSetDefaults } from './mutations.ts';
import { DEFAULTS_FIELDS, defaultsSchema, defaultsToForm, type DefaultsInput, type DefaultsValues } from './schemas.ts';

export interface DefaultsFormOptions {
  current: UserDefaultSettings;
  roles: readonly RoleRecord[];
  groups: readonly GroupRecord[];
  onDone: () => void;
}

export function useDefaultsForm({ current, roles, groups, onDone }: DefaultsFormOptions) {
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
  // others): addGroupUsers' declaration, its owner or a manager, or a holder of portal:admin:assignToGroups.
  const mayAddTo = (g: GroupRecord) =>
    current.groups.includes(g.id) ||
    canOn(user, 'addGroupUsers', { orgId: user.orgId, owned: ['owner', 'admin'].includes(g.userMembership?.memberType ?? 'none') }).allowed;
  const groupData = [
    ...groups.map((g) =>
      mayAddTo(g) ? { value: g.id, label: g.title } : { value: g.id, label: `${g.title} (only its managers add members)`, disabled: true },
    ),
    // A default group the list did not include still shows (by id).
    ...current.groups.filter((id) => !groups.some((g) => g.id === id)).map((id) => ({ value: id, label: id })),
  ];

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

  return { form, err, guard, saving: save.isPending, formError, licenseType, roleData, roleConflict, groupData, onSubmit };
}
