/** A guest leaving: which of its workspaces stop exchanging, then the collaboration's name typed to confirm. */
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError, type CollaborationRecord, type ParticipantRecord } from '../../api/index.ts';
import { useLeaveCollaboration } from './mutations.ts';
import { accessLabel } from './RemoveParticipantModal.tsx';

export function LeaveCollaborationModal({ orgId, collaboration, me, opened, onClose }: { orgId: string; collaboration: CollaborationRecord; me?: ParticipantRecord; opened: boolean; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const leave = useLeaveCollaboration(orgId, collaboration.id);
  const stopping = me?.workspaces.filter((w) => w.exchanging) ?? [];
  const close = () => {
    setTyped('');
    leave.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Leave ${collaboration.name}?`} centered size="lg">
      <Stack gap="md">
        <Stack gap={4} data-testid="leave-preview">
          <Text size="sm" fw={600}>
            {stopping.length ? 'These workspaces stop exchanging content with your organization:' : 'Your organization exchanges through no workspace now.'}
          </Text>
          {stopping.length ? (
            <List size="sm">
              {stopping.map((w) => (
                <List.Item key={w.workspaceId}>
                  {w.workspaceName} ({accessLabel(w.access)})
                </List.Item>
              ))}
            </List>
          ) : null}
          <Text size="sm" c="dimmed">
            Your groups, members and items stay as they are. Only {collaboration.hostPortalName} can invite your organization again.
          </Text>
        </Stack>
        <TextInput label={`Type ${collaboration.name} to confirm`} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
        {leave.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(leave.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={typed.trim() !== collaboration.name}
            loading={leave.isPending}
            onClick={() =>
              leave.mutate(undefined, {
                onSuccess: () => {
                  notifications.show({ color: 'green', title: 'Left the collaboration', message: `Your organization no longer takes part in ${collaboration.name}.` });
                  close();
                },
              })
            }
          >
            Leave collaboration
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
