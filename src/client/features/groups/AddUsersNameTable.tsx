/** The names chosen so far, each with what will happen to it before anything is sent. */
import { Badge, Group, ScrollArea, Table, Text } from '@mantine/core';
import { describeEligibility } from './addUsersWords.ts';
import type { Eligibility } from './eligibility.ts';

export function AddUsersNameTable({
  judged,
  fullNameOf,
}: {
  judged: readonly { name: string; eligibility: Eligibility }[];
  fullNameOf: (name: string) => string;
}) {
  return (
    <ScrollArea.Autosize mah={220} type="auto">
      <Table verticalSpacing={4} fz="sm" aria-label="Who will be added" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">User</Table.Th>
            <Table.Th scope="col">Before adding</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {judged.map(({ name, eligibility: e }) => {
            const d = describeEligibility(e);
            const fullName = fullNameOf(name);
            return (
              <Table.Tr key={name.toLowerCase()}>
                <Table.Td>
                  {fullName ? `${fullName} ` : ''}
                  <Text span size="sm" ff="monospace" c={fullName ? 'dimmed' : undefined}>
                    {fullName ? `(${name})` : name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="wrap" align="flex-start">
                    <Badge color={d.color} variant="light" tt="none" style={{ flex: 'none' }}>
                      {d.badge}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {d.detail}
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
