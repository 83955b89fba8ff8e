/** The run history of one task, newest first, each time in local time with UTC below. */
import { Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TaskRecord } from '../../api/index.ts';
import { runsQuery } from '../../api/queries/tasks.ts';
import { formatLocal, formatUtc } from '../../components/cronSchedule.ts';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { nextRunOf, RUN_COLORS, WhenCell } from './taskDisplay.tsx';

export function RunHistory({ task }: { task: TaskRecord }) {
  const runs = useQuery(runsQuery(task.userId, task.id));
  if (runs.isPending) return <LoadingState label="Loading runs…" />;
  if (runs.isError) return <ErrorState error={runs.error} title="Runs could not be loaded" onRetry={() => runs.refetch()} />;
  if (!runs.data.runs.length)
    return (
      <EmptyPanel
        title="No runs yet"
        description={nextRunOf(task) ? `The first run is due ${formatLocal(nextRunOf(task)!)} (${formatUtc(nextRunOf(task)!)}).` : undefined}
      />
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The latest runs, newest first. Times in your time zone, UTC below.
      </Text>
      <Table aria-label="Runs" verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Scheduled</Table.Th>
            <Table.Th w={110}>Status</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Finished</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.data.runs.map((r) => (
            <Table.Tr key={r.runId}>
              <Table.Td>
                <WhenCell ms={r.scheduled} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }} miw={100}>
                <Badge color={RUN_COLORS[r.status]} variant="light" tt="none" style={{ overflow: 'visible' }}>
                  {r.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <WhenCell ms={r.started} />
              </Table.Td>
              <Table.Td>
                <WhenCell ms={r.finished} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {r.result || '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
