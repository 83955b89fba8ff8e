/** Each row of a members CSV: who it adds, and every problem that keeps it out (rows with problems first). */
import { Badge, List, ScrollArea, Table, Text } from '@mantine/core';
import type { MemberCsvRow } from './csvPlan.ts';

export function CsvPreview({ rows }: { rows: readonly MemberCsvRow[] }) {
  const ordered = [...rows.filter((r) => r.problems.length), ...rows.filter((r) => !r.problems.length)];
  return (
    // Focusable so the keyboard can scroll it; named by the table it holds.
    <ScrollArea.Autosize mah={360} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Rows of the file, scrollable' }}>
      <Table aria-label="Rows of the file" verticalSpacing={6} striped stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>Member</Table.Th>
            <Table.Th>Outcome</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ordered.map((r) => (
            <Table.Tr key={r.line} data-ok={!r.problems.length}>
              <Table.Td>
                <Text size="sm">{r.line}</Text>
              </Table.Td>
              <Table.Td>
                {r.fullName ? <Text size="sm">{r.fullName}</Text> : null}
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {r.username || '(no username)'}
                </Text>
                <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {r.email || '(no email)'}
                </Text>
                <Text size="xs" c="dimmed">
                  {[r.roleText || 'Default role', r.userTypeText || 'default user type'].join(', ')}
                </Text>
              </Table.Td>
              <Table.Td>
                {r.problems.length ? (
                  <>
                    <Badge variant="light" color="red" tt="none" mb={4}>
                      Left out
                    </Badge>
                    <List size="xs" spacing={2} style={{ overflowWrap: 'anywhere' }}>
                      {r.problems.map((p) => (
                        <List.Item key={p}>{p}</List.Item>
                      ))}
                    </List>
                  </>
                ) : (
                  <Badge variant="light" color="blue" tt="none">
                    Will be added
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
