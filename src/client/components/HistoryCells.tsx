/**
 * The cells of a history list (HistoryList.tsx): an entry's undo checkbox or why it has none, and
 * the entry in words with its before/after on demand. A replacement run's entry opens to its rows
 * and ticks all of its undoable rows at once.
 */
import { Anchor, Checkbox, Stack, Table, Text } from '@mantine/core';
import type { HistoryEvent } from '../api/index.ts';
import { changeRows, describeEvent, detailRows, eventKey, type Names } from '../lib/history/describe.ts';
import { describeEntry, entryEvents, type HistoryEntry } from '../lib/history/group.ts';
import type { UndoPlan } from '../lib/history/undo.ts';

export function EntryUndoCell({
  entry,
  names,
  plans,
  isSelected,
  onChange,
}: {
  entry: HistoryEntry;
  names: Names;
  plans: ReadonlyMap<string, UndoPlan>;
  isSelected: (e: HistoryEvent) => boolean;
  onChange: (on: boolean) => void;
}) {
  if (entry.kind === 'event') {
    const plan = plans.get(eventKey(entry.event));
    if (!plan) return null;
    if (!plan.undoable) return <NoUndo reason={plan.reason} />;
    return (
      <Checkbox
        aria-label={`Select to undo: ${describeEvent(entry.event, names)}`}
        checked={isSelected(entry.event)}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    );
  }
  const undoable = entryEvents(entry).filter((e) => plans.get(eventKey(e))?.undoable);
  if (!undoable.length) return <NoUndo reason="none of its changes can be undone." />;
  const ticked = undoable.filter(isSelected).length;
  return (
    <Checkbox
      aria-label={`Select to undo the whole replacement: ${describeEntry(entry, names)}`}
      checked={ticked === undoable.length}
      indeterminate={ticked > 0 && ticked < undoable.length}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

const NoUndo = ({ reason }: { reason: string }) => (
  <Text size="xs" c="dimmed">
    No undo: {reason}
  </Text>
);

/** The entry in words: an event with its details; a replacement run with its rows on demand. */
export function EntryEventCell({ entry, names }: { entry: HistoryEntry; names: Names }) {
  if (entry.kind === 'event') return <EventCell event={entry.event} names={names} />;
  return (
    <Stack gap={4} data-testid="replacement-entry">
      <Text size="sm">{describeEntry(entry, names)}</Text>
      <details>
        <summary>
          <Anchor component="span" size="xs">
            Show its {entry.events.length} changes
          </Anchor>
        </summary>
        <Stack gap={6} mt={4} pl="sm" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          {entry.events.map((e) => (
            <EventCell key={eventKey(e)} event={e} names={names} />
          ))}
        </Stack>
      </details>
    </Stack>
  );
}

/** The event in words, and its before/after (or other details) on demand. */
function EventCell({ event, names }: { event: HistoryEvent; names: Names }) {
  const changes = changeRows(event, names);
  const details = detailRows(event, names);
  return (
    <Stack gap={4}>
      <Text size="sm">{describeEvent(event, names)}</Text>
      {changes.length || details.length ? (
        <details>
          <summary>
            <Anchor component="span" size="xs">
              Details
            </Anchor>
          </summary>
          <Table fz="xs" withTableBorder mt={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((r) => (
                <Table.Tr key={r.field}>
                  <Table.Td>{r.label}</Table.Td>
                  <Table.Td>{r.before}</Table.Td>
                  <Table.Td>{r.after}</Table.Td>
                </Table.Tr>
              ))}
              {details.map((r) => (
                <Table.Tr key={r.field}>
                  <Table.Td>{r.label}</Table.Td>
                  <Table.Td colSpan={2}>{r.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </details>
      ) : null}
    </Stack>
  );
}
