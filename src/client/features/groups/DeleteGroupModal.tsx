/** Confirms deleting a group, saying what goes with it. */
import { Alert, List, Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { describeErrorFully, type GroupRecord } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { useDeleteGroup } from './mutations.ts';

export function DeleteGroupModal({ opened, group, onClose, onDeleted }: { opened: boolean; group: GroupRecord; onClose: () => void; onDeleted: () => void }) {
  const user = useCurrentUser();
  const remove = useDeleteGroup(user.orgId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Delete ${group.title}?`} centered>
      <DialogLayout>
        <DialogScroll gap="md">
          <List size="sm" spacing={4}>
            <List.Item>
              The group is removed for good, with its {group.memberCount !== undefined ? `${group.memberCount} ` : ''}memberships; this cannot be undone.
            </List.Item>
            <List.Item>Content shared with it stays with its owners but is no longer shared through it.</List.Item>
            <List.Item>If it is a group new members join by default, it stops being one.</List.Item>
          </List>
          {remove.isError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The group was not deleted" role="alert">
              {describeErrorFully(remove.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions
          onCancel={close}
          confirmLabel="Delete group"
          loading={remove.isPending}
          onConfirm={() =>
            remove.mutate(group.id, {
              onSuccess: () => {
                notifications.show({ color: 'green', title: 'Group deleted', message: `“${group.title}” was deleted.` });
                close();
                onDeleted();
              },
            })
          }
        />
      </DialogLayout>
    </Modal>
  );
}
