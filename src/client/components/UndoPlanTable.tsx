/** One row per undoable event: include it or not, what it changed, what undo will do, and the check's verdict. */
import { Badge, Checkbox, ScrollArea, Table, Text } from '@mantine/core';
import { formatDateTime } from '../lib/format.ts';
import { describeEvent, type Names } from '../lib/history/describe.ts';
import type { CheckedPlan } from '../lib/history/run.ts';
import { VERDICT_BADGE, verdictOf, verdictText } from './undoVerdict.ts';

export function UndoPlanTable({
  checked,
  included,
  onToggle,
  names,
}: {
  checked: CheckedPlan[];
  included: Set<string>;
  onToggle: (key: string, on: boolean) => void;
  names: Names;
}) {
  return (
    <ScrollArea.Autosize mah={420} type="auto">
      <Table aria-label="Changes to undo" verticalSpacing={6} striped stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>Undo</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>Compensating operations</Table.Th>
            <Table.Th>Check</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checked.map((c) => {
            const verdict = verdictOf(c);
            const said = describeEvent(c.plan.event, names);
            const runnable = verdict !== 'gone' && verdict !== 'error';
            return (
              <Table.Tr key={c.plan.key} data-verdict={verdict}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Undo: ${said}`}
                    checked={runnable && included.has(c.plan.key)}
                    disabled={!runnable}
                    onChange={(e) => onToggle(c.plan.key, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{said}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(c.plan.event.created)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{c.plan.summary}</Text>
                  {c.plan.note ? (
                    <Text size="xs" c="dimmed">
                      {c.plan.note}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Badge size="sm" variant="light" tt="none" color={VERDICT_BADGE[verdict].color} style={{ overflow: 'visible' }}>
                    {VERDICT_BADGE[verdict].label}
                  </Badge>
                  <Text size="xs" mt={2}>
                    {verdictText(c, verdict)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
