/** The current new-member defaults as a read-only table, an unset one as "Not set". */
import { Badge, Group, Table, Text } from '@mantine/core';
import { NOT_SET, type DefaultsRows } from './describeDefaults.ts';

function Value({ value }: { value: string | readonly string[] | null }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed">
        {NOT_SET}
      </Text>
    );
  if (typeof value === 'string')
    return (
      <Text size="sm" fw={500}>
        {value}
      </Text>
    );
  return (
    <Group gap={4} justify="flex-end">
      {value.map((v) => (
        <Badge key={v} variant="light" tt="none">
          {v}
        </Badge>
      ))}
    </Group>
  );
}

export function DefaultsSummary({ rows }: { rows: DefaultsRows }) {
  return (
    <Table aria-label="Current new-member defaults" verticalSpacing="xs" maw={640}>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Th w={160} fw={500} c="dimmed">
              {r.label}
            </Table.Th>
            <Table.Td ta="right">
              <Value value={r.value} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
