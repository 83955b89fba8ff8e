/** A schedule in words with its next runs in local time and UTC, or why it cannot be shown. */
import { Paper, Stack, Table, Text } from '@mantine/core';
import { formatLocal, formatUtc, type SchedulePreview } from './cronSchedule.ts';

export function CronPreview({ preview }: { preview: SchedulePreview }) {
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Schedule preview">
      {preview.words ? (
        <Stack gap={6}>
          {/* Polite live region: changing the repeat or the time by keyboard speaks the new schedule. */}
          <Text fw={600} data-testid="schedule-words" aria-live="polite">
            {preview.words} (UTC)
          </Text>
          {preview.runs.length ? (
            <Table aria-label="Next runs" verticalSpacing={2} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Next runs (your time)</Table.Th>
                  <Table.Th>UTC</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.runs.map((t) => (
                  <Table.Tr key={t}>
                    <Table.Td>{formatLocal(t)}</Table.Td>
                    <Table.Td c="dimmed">{formatUtc(t)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="orange">
              No run falls between the start and end dates.
            </Text>
          )}
        </Stack>
      ) : (
        <Text size="sm" c="red">
          Fix the schedule to see when it runs.
        </Text>
      )}
    </Paper>
  );
}
