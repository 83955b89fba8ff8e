/**
 * Removing a participant: what stops (the workspaces exchanging with it) and what does not
 * (everything else of both organizations), then a typed confirmation of the participant's name.
 */
import { Alert, Modal, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError, type ParticipantRecord } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { plural } from '../../lib/format.ts';
import { useRemoveParticipant } from './mutations.ts';
import { StoppingWorkspaces } from './StoppingWorkspaces.tsx';

export function RemoveParticipantModal({
  orgId,
  collaborationId,
  participant,
  onClose,
}: {
  orgId: string;
  collaborationId: string;
  participant: ParticipantRecord | null;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const remove = useRemoveParticipant(orgId, collaborationId);
  const name = participant?.portalInfo.name ?? '';
  const stopping = participant?.workspaces?.filter((w) => w.exchanging) ?? [];
  const close = () => {
    setTyped('');
    remove.reset();
    onClose();
  };
  const confirm = () =>
    participant &&
    remove.mutate(participant.portalInfo.id, {
      onSuccess: (answer) => {
        notifications.show({
          color: 'green',
          title: 'Participant removed',
          message: `${name} no longer takes part; ${stoppedWorkspaces(answer.workspacesStopped)}`,
        });
        close();
      },
    });
  return (
    <Modal opened={!!participant} onClose={close} title={`Remove ${name}?`} centered size="lg">
      <DialogLayout>
        <DialogScroll gap="md">
          <StoppingWorkspaces
            testId="impact-preview"
            workspaces={stopping}
            heading={`${stopping.length === 1 ? 'This workspace stops' : 'These workspaces stop'} exchanging content with ${name}:`}
            none={`${name} exchanges through no workspace now.`}
            note="Nothing else changes: the groups, members and items of both organizations stay as they are, and content already copied stays where it is. The removal is recorded in the collaboration's history."
          />
          <TextInput label={`Type ${name} to confirm`} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
          {remove.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(remove.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions onCancel={close} onConfirm={confirm} confirmLabel="Remove participant" disabled={typed.trim() !== name} loading={remove.isPending} />
      </DialogLayout>
    </Modal>
  );
}

/** What the removal stopped, in words: a count of none reads as such, not as "0 workspaces". */
function stoppedWorkspaces(stopped: readonly unknown[] | undefined): string {
  if (!stopped) return 'its workspaces stopped exchanging with it.';
  if (!stopped.length) return 'no workspace was exchanging with it.';
  return `${plural(stopped.length, 'workspace')} stopped exchanging with it.`;
}
