/**
 * The guest's side on a portal without this console's local extras (ArcGIS Enterprise): there is
 * no list of invitations to answer, so the administrator accepts with the invitation file the host
 * sent, through the documented `acceptCollaborationInvitation`. The file input is a button (Enter
 * or Space opens the file chooser); a refusal says why (not an invitation, for another
 * organization, expired) and keeps the file chosen so another can replace it.
 */
import { Alert, FileInput, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconAlert, IconUpload } from '../../components/icons.tsx';
import { announce } from '../../lib/announce.ts';
import type { Permission } from '../../lib/privileges.ts';
import { useAcceptInvitationFile } from './mutations.ts';

export function AcceptInvitationFile({
  orgId,
  mayAnswer,
  onAccepted,
}: {
  orgId: string;
  mayAnswer: Permission;
  onAccepted: (collaborationId: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const accept = useAcceptInvitationFile(orgId);
  const onAccept = () => {
    if (!file) return;
    accept.mutate(file, {
      onSuccess: ({ collaborationId }) => {
        notifications.show({ color: 'green', title: 'Invitation accepted', message: 'Your organization now takes part in the collaboration.' });
        announce('Invitation accepted: your organization takes part in the collaboration');
        setFile(null);
        onAccepted(collaborationId);
      },
    });
  };
  return (
    <Paper withBorder radius="md" p="md" mb="lg" component="section" aria-labelledby="accept-invitation-file-heading">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="accept-invitation-file-heading">
          Accept an invitation
        </Title>
        <Text size="sm" c="dimmed">
          The host of a collaboration sends its invitation as a file (it ends in .invite). Choose it here to join the collaboration; you link its workspaces to
          your groups afterwards.
        </Text>
        {accept.isError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} role="alert" title="The invitation was not accepted">
            {describeError(accept.error)}
          </Alert>
        ) : null}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <FileInput
            label="Invitation file"
            placeholder="Choose the .invite file"
            leftSection={<IconUpload />}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
            value={file}
            onChange={(f) => {
              accept.reset();
              setFile(f);
            }}
            style={{ flex: '1 1 16rem' }}
          />
          <GuardedButton permission={mayAnswer} disabled={!file} loading={accept.isPending} onClick={onAccept}>
            Accept invitation
          </GuardedButton>
        </Group>
      </Stack>
    </Paper>
  );
}
