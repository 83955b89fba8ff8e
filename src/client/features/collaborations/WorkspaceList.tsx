/** A collaboration's workspaces: each with its limits, the caller's group, and who exchanges through it. */
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { WorkspacePage } from '../../api/index.ts';
import { ErrorState } from '../../components/states.tsx';
import { accessLabel } from './StoppingWorkspaces.tsx';

export function WorkspaceList({ workspaces }: { workspaces: UseQueryResult<WorkspacePage> }) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Workspaces
      </Title>
      {workspaces.isError ? <ErrorState error={workspaces.error} onRetry={() => workspaces.refetch()} /> : null}
      {workspaces.data && !workspaces.data.workspaces.length ? (
        <Text size="sm" c="dimmed">
          No workspaces yet.
        </Text>
      ) : null}
      {workspaces.data?.workspaces.map((w) => (
        <Paper key={w.id} withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {w.name}
              </Text>
              <Text size="xs" c="dimmed">
                {w.description || 'No description'} · items up to {w.config.maxItemSizeInMB} MB{w.groupName ? ` · your group: ${w.groupName}` : ''}
              </Text>
            </Stack>
            <Group gap={6} role="group" aria-label={`Participants of workspace ${w.name}`}>
              {(w.participants ?? []).map((p) => (
                <Badge key={p.portalId} size="sm" variant={p.exchanging ? 'light' : 'outline'} color={p.exchanging ? 'teal' : 'gray'} tt="none">
                  {p.portalName}: {p.exchanging ? accessLabel(p.access) : 'stopped'}
                </Badge>
              ))}
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
