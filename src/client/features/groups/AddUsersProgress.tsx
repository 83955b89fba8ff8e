/** The "Add users" step while the names are sent, batch by batch. */
import { Stack, Text } from '@mantine/core';
import { BulkProgress } from '../../components/Bulk.tsx';
import { BATCH_SIZE } from './mutations.ts';

export function AddUsersProgress({ phase }: { phase: { done: number; total: number; names: number } }) {
  const namesSent = Math.min(phase.done * BATCH_SIZE, phase.names);
  return (
    <Stack gap="md" py="md">
      <BulkProgress
        label={`Adding ${phase.names} user${phase.names === 1 ? '' : 's'}`}
        autoFocus
        done={phase.done}
        total={phase.total}
        detail={`Batch ${Math.min(phase.done + 1, phase.total)} of ${phase.total} · ${namesSent} of ${phase.names} names sent`}
      />
      <Text size="sm" c="dimmed">
        Users are added {BATCH_SIZE} at a time, the most the portal takes in one request.
      </Text>
    </Stack>
  );
}
