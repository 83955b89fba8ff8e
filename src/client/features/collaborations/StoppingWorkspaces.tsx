/** The impact preview of leaving or removing: which workspaces stop exchanging, and what stays. */
import { List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ParticipantRecord } from '../../api/index.ts';

type Workspace = ParticipantRecord['workspaces'][number];

export function accessLabel(access: Workspace['access']): string {
  return access === 'sendAndReceive' ? 'sends and receives' : access === 'send' ? 'sends' : 'receives';
}

export interface StoppingWorkspacesProps {
  testId: string;
  /** The workspaces that stop (the ones still exchanging). */
  workspaces: readonly Workspace[];
  heading: string;
  /** Said instead of the heading when no workspace is exchanging. */
  none: string;
  /** What does not change. */
  note: ReactNode;
}

export function StoppingWorkspaces({ testId, workspaces, heading, none, note }: StoppingWorkspacesProps) {
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={600}>
        {workspaces.length ? heading : none}
      </Text>
      {workspaces.length ? (
        <List size="sm">
          {workspaces.map((w) => (
            <List.Item key={w.workspaceId}>
              {w.workspaceName} ({accessLabel(w.access)})
            </List.Item>
          ))}
        </List>
      ) : null}
      <Text size="sm" c="dimmed">
        {note}
      </Text>
    </Stack>
  );
}
