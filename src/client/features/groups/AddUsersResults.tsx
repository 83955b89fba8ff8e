/** The last "Add users" step: one row per name, added or not with the portal's reason, and a retry of those not added. */
import { Button, Group, Stack, Text } from '@mantine/core';
import { BulkResultTable } from '../../components/Bulk.tsx';
import { IconRefresh } from '../../components/icons.tsx';
import { plural } from './addUsersWords.ts';
import type { NameResult } from './useAddUsers.ts';

export function AddUsersResults({
  results,
  leftOut,
  onStartOver,
  onRetry,
  onClose,
}: {
  results: ReadonlyMap<string, NameResult>;
  leftOut: number;
  onStartOver: () => void;
  onRetry: (names: string[]) => void;
  onClose: () => void;
}) {
  const rows = [...results.values()];
  const notAdded = rows.filter((r) => !r.ok).map((r) => r.name);
  return (
    <Stack gap="md">
      <BulkResultTable
        label="Add users results"
        rows={rows.map((r) => ({
          key: r.name.toLowerCase(),
          name: (
            <Text size="sm" ff="monospace">
              {r.name}
            </Text>
          ),
          spoken: r.name,
          ok: r.ok,
          detail: r.detail,
        }))}
        nameHeader="Username"
        successLabel="Added"
        failureLabel="Not added"
        autoFocus
      />
      <Text size="xs" c="dimmed">
        Users who were already in the group count as added.
        {leftOut ? ` ${plural(leftOut, 'name was', 'names were')} left out before sending (already in the group, disabled or not accepted).` : ''}
      </Text>
      <Group justify="space-between">
        <Button variant="subtle" onClick={onStartOver}>
          Add more users
        </Button>
        <Group gap="sm">
          {notAdded.length ? (
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => onRetry(notAdded)}>
              Retry the ones not added ({notAdded.length})
            </Button>
          ) : null}
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Group>
    </Stack>
  );
}
