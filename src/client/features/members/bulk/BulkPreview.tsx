/** A bulk action's preview: each member, what changes, and who is skipped and why. */
import { Badge, ScrollArea, Table, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format.ts';
import type { PlanRow } from './plan.ts';

/** Rows drawn at most: the rest are acted on as previewed, and the counts say how many. */
const SHOWN = 200;

export function BulkPreview({ rows }: { rows: readonly PlanRow[] }) {
  // Skipped members first: they are what the administrator needs to read.
  const ordered = [...rows.filter((r) => r.skip), ...rows.filter((r) => !r.skip)];
  const shown = ordered.slice(0, SHOWN);
  return (
    <>
      <ScrollArea.Autosize mah={320} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Preview, scrollable' }}>
        <Table aria-label="Preview" verticalSpacing={6} striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>Outcome</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map(({ member: m, change, skip }) => (
              <Table.Tr key={m.username}>
                <Table.Td>
                  {m.fullName && m.fullName !== m.username ? <Text size="sm">{m.fullName}</Text> : null}
                  <Text size="xs" c="dimmed" ff="monospace">
                    {m.username}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{change}</Text>
                </Table.Td>
                <Table.Td>
                  {skip ? (
                    <Text size="xs" c="orange.8">
                      Skipped: {skip}
                    </Text>
                  ) : (
                    <Badge variant="light" color="blue" tt="none">
                      Will change
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {ordered.length > SHOWN ? (
        <Text size="xs" c="dimmed">
          Showing the first {SHOWN} of {formatCount(ordered.length)} members (skipped ones first); every one is acted on as previewed.
        </Text>
      ) : null}
    </>
  );
}
