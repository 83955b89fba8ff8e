/** The two later steps of every bulk action: progress while it runs, then one result per row. */
import { Badge, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconCheck, IconX } from './icons.tsx';

export function BulkProgress({ label, done, total, detail }: { label: string; done: number; total: number; detail?: string }) {
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {detail ?? `${done} of ${total}`}
        </Text>
      </Group>
      <Progress value={percent} size="lg" radius="xl" animated={done < total} aria-label={label} aria-valuetext={`${done} of ${total}`} />
    </Stack>
  );
}

export interface BulkResultRow {
  key: string;
  /** What the row is about (a member, a username). */
  name: ReactNode;
  ok: boolean;
  /** The service's reason for a failure, or a note on a success. */
  detail?: ReactNode;
}

export interface BulkResultTableProps {
  /** Names the table, e.g. "Role assignment results". */
  label: string;
  rows: readonly BulkResultRow[];
  nameHeader?: string;
  successLabel?: string;
  failureLabel?: string;
}

/** Failures first (they need attention), then successes; each with the service's words. */
export function BulkResultTable({ label, rows, nameHeader = 'Name', successLabel = 'Done', failureLabel = 'Failed' }: BulkResultTableProps) {
  const failed = rows.filter((r) => !r.ok);
  const ordered = [...failed, ...rows.filter((r) => r.ok)];
  return (
    <Stack gap="xs">
      <Group gap="xs" role="status">
        <Badge color="green" variant="light" leftSection={<IconCheck size={12} />} tt="none">
          {rows.length - failed.length} {successLabel.toLowerCase()}
        </Badge>
        <Badge color={failed.length ? 'red' : 'gray'} variant="light" leftSection={<IconX size={12} />} tt="none">
          {failed.length} {failureLabel.toLowerCase()}
        </Badge>
      </Group>
      <ScrollArea.Autosize mah={360} type="auto">
        <Table aria-label={label} verticalSpacing={6} striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{nameHeader}</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered.map((r) => (
              <Table.Tr key={r.key} data-ok={r.ok}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>
                  <Badge color={r.ok ? 'green' : 'red'} variant="light" tt="none" size="sm">
                    {r.ok ? successLabel : failureLabel}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={r.ok ? 'dimmed' : undefined}>
                    {r.detail ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
