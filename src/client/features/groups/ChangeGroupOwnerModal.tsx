/**
 * Gives a group to another member of its organization (Reassign Group, administrators only): the
 * new owner joins it if they were not in it, and the previous owner stays in it as a member. The
 * history can give it back.
 */
import { Alert, List, Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { GroupRecord } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { MemberPicker, type PickedMember } from '../../components/MemberPicker.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { useReassignGroups } from '../../lib/reassignGroups.ts';

export function ChangeGroupOwnerModal({ opened, group, onClose }: { opened: boolean; group: GroupRecord; onClose: () => void }) {
  const user = useCurrentUser();
  const reassign = useReassignGroups();
  const [target, setTarget] = useState<PickedMember | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setTarget(null);
    setRefusal(null);
    reassign.reset();
    onClose();
  };

  async function confirm() {
    if (!target) return;
    setRefusal(null);
    const [outcome] = await reassign.mutateAsync([{ groupId: group.id, title: group.title, targetUsername: target.username }]);
    if (!outcome.ok) return setRefusal(outcome.message);
    notifications.show({ color: 'green', title: 'Owner changed', message: `“${group.title}” now belongs to ${target.username}.` });
    close();
  }

  return (
    <Modal opened={opened} onClose={close} title={`Change the owner of ${group.title}`} centered>
      <DialogLayout>
        <DialogScroll gap="md">
          <MemberPicker
            orgId={user.orgId}
            label="New owner"
            description="A member of the organization who may own groups."
            value={target}
            onChange={(m) => {
              setTarget(m);
              setRefusal(null);
            }}
            exclude={[group.owner]}
            disabled={reassign.isPending}
            required
            dialogAutoFocus
          />
          <List size="sm" spacing={4}>
            <List.Item>If the new owner is not in the group, they join it as its owner.</List.Item>
            <List.Item>{group.owner} stays in the group as a member.</List.Item>
            <List.Item>The group’s history can give it back to {group.owner}.</List.Item>
          </List>
          {refusal ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The owner was not changed" role="alert">
              {refusal}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions onCancel={close} confirmLabel="Change owner" color="blue" loading={reassign.isPending} disabled={!target} onConfirm={confirm} />
      </DialogLayout>
    </Modal>
  );
}
