/** A guest leaving: which of its workspaces stop exchanging, then the collaboration's name typed to confirm. */
import { Alert, Modal, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError, type CollaborationRecord, type ParticipantRecord } from '../../api/index.ts';
import { useLeaveCollaboration } from './mutations.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { StoppingWorkspaces } from './StoppingWorkspaces.tsx';

export function LeaveCollaborationModal({
  orgId,
  collaboration,
  me,
  opened,
  onClose,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  me?: ParticipantRecord;
  opened: boolean;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const leave = useLeaveCollaboration(orgId, collaboration.id);
  const stopping = me?.workspaces?.filter((w) => w.exchanging) ?? [];
  const close = () => {
    setTyped('');
    leave.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Leave ${collaboration.name}?`} centered size="lg">
      <DialogLayout>
        <DialogScroll gap="md">
          <StoppingWorkspaces
            testId="leave-preview"
            workspaces={stopping}
            heading={`${stopping.length === 1 ? 'This workspace stops' : 'These workspaces stop'} exchanging content with your organization:`}
            none="Your organization exchanges through no workspace now."
            note={`Your groups, members and items stay as they are. Only ${collaboration.hostPortalName} can invite your organization again.`}
          />
          <TextInput
            label={`Type ${collaboration.name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          {leave.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(leave.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions
          onCancel={close}
          confirmLabel="Leave collaboration"
          disabled={typed.trim() !== collaboration.name}
          loading={leave.isPending}
          onConfirm={() =>
            leave.mutate(undefined, {
              onSuccess: () => {
                notifications.show({
                  color: 'green',
                  title: 'Left the collaboration',
                  message: `Your organization no longer takes part in ${collaboration.name}.`,
                });
                close();
              },
            })
          }
        />
      </DialogLayout>
    </Modal>
  );
}
