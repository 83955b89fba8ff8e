/** What saving the role will change, shown before it is saved: details, privileges, what the role counts as, and who it affects. */
import { Alert, Button, List, Modal, Stack, Text, Title } from '@mantine/core';
import { describeError } from '../../api/index.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { PrivilegeDiffView } from '../../components/PrivilegeSets.tsx';
import { privilegeLabel } from '../../lib/privileges.ts';
import { tickPrivileges } from '../../lib/privilegeSets.ts';
import { baseRoleLabel } from '../../lib/roles.ts';
import { PrivilegesNotSavedError } from './mutations.ts';
import type { EditedRole, RoleEditorState } from './useRoleEditor.ts';

export function RoleReviewModal({ role, state }: { role: EditedRole | undefined; state: RoleEditorState }) {
  // From the role itself (not the state's copy), so that the compiler knows an existing role is there.
  const isNew = !role;
  const { reviewing, setReviewing, form, diff, privilegesChanged, wasBase, willBe, unmet, setSelection, selection, heldBy, save, onSave } = state;
  return (
    <Modal opened={reviewing !== null} onClose={() => setReviewing(null)} title={isNew ? 'Create this role?' : 'Save these changes?'} size="xl" centered>
      {reviewing ? (
        <DialogLayout>
          <DialogScroll gap="md" aria-label="Changes to save">
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
          </DialogScroll>
          <DialogFooter>
            <Button variant="default" onClick={() => setReviewing(null)}>
              Back to editing
            </Button>
            <Button onClick={onSave} loading={save.isPending} disabled={unmet.length > 0} data-autofocus>
              {isNew ? 'Create role' : 'Save role'}
            </Button>
          </DialogFooter>
        </DialogLayout>
      ) : null}
    </Modal>
  );
}
