/**
 * Deleting a role, with what it means said first. The portal refuses to delete a role that members
 * still hold (or that new members get by default); its words are shown, with a way to the members.
 */
import { Alert, Button, List, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { describeErrorFully, type RoleRecord } from '../../api/index.ts';
import { IconAlert } from '../../components/icons.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { useDeleteRole } from './mutations.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';

export interface DeleteRoleModalProps {
  /** The role to delete; null when closed. */
  role: RoleRecord | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteRoleModal({ role, onClose, onDeleted }: DeleteRoleModalProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const remove = useDeleteRole(user.orgId);
  const close = () => {
    remove.reset();
    onClose();
  };
  const held = role?.memberCount ?? 0;

  return (
    <Modal opened={role !== null} onClose={close} title={role ? `Delete the role “${role.name}”?` : 'Delete role'} centered>
      {role ? (
        <DialogLayout>
          <DialogScroll gap="md">
            <Text size="sm">What deleting it means:</Text>
            <List size="sm" spacing={4}>
              <List.Item>The role and its privileges are removed for good; this cannot be undone.</List.Item>
              <List.Item>
                {held > 0
                  ? `${held} member${held === 1 ? ' holds' : 's hold'} it. The portal keeps a role that members hold: give them another role first.`
                  : 'No member holds it, as far as the list shows.'}
              </List.Item>
              <List.Item>If it is the role new members get by default, change the new-member defaults first.</List.Item>
            </List>
            {remove.isError ? (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The role was not deleted" role="alert">
                {describeErrorFully(remove.error)}
              </Alert>
            ) : null}
          </DialogScroll>
          <ConfirmActions
            aside={
              <Button variant="subtle" onClick={() => navigate(`/members?role=${encodeURIComponent(role.id)}`)}>
                Show members with this role
              </Button>
            }
            onCancel={close}
            confirmLabel="Delete role"
            loading={remove.isPending}
            onConfirm={() =>
              remove.mutate(role.id, {
                onSuccess: () => {
                  notifications.show({ color: 'green', title: 'Role deleted', message: `The role “${role.name}” was deleted.` });
                  close();
                  onDeleted?.();
                },
              })
            }
          />
        </DialogLayout>
      ) : null}
    </Modal>
  );
}
