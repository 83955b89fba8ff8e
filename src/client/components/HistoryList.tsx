/**
 * A list of history events in words, shared by the Activity page and every History section: a
 * checkbox on each event that can be undone (the others say why not), "Undo selected" for the
 * ticked ones (the undo dialog), each event's before/after on demand, and "Load more".
 */
import { Anchor, Button, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import type { HistoryEvent } from '../api/index.ts';
import { ID_TYPE_LABELS } from '../../shared/contract/history.ts';
import { formatDateTime } from '../lib/format.ts';
import { changeRows, describeEvent, detailRows, eventKey, type Names } from '../lib/history/describe.ts';
import { useHistoryNames } from '../lib/history/names.ts';
import { changedSince, planUndoNamed, type UndoPlan } from '../lib/history/undo.ts';
import { DataTable, type DataTableColumn } from './DataTable.tsx';
import { UndoDialog } from './UndoDialog.tsx';

export interface HistoryListProps {
  /** Names the table, e.g. "Organization activity". */
  label: string;
  rows: HistoryEvent[] | undefined;
  loading?: boolean;
  fetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  /** Shows the target type column (Activity lists every target; a History section one). */
  showTarget?: boolean;
}

export function HistoryList({ label, rows, showTarget = true, ...props }: HistoryListProps) {
  const [selected, setSelected] = useState<Map<string, HistoryEvent>>(new Map());
  const [undoing, setUndoing] = useState(false);
  const names = useHistoryNames(rows);
  // An event whose target a later event shown here removed has nothing to undo: no checkbox, the reason instead.
  const plans = useMemo(
    () =>
      new Map(
        (rows ?? []).map((e): [string, UndoPlan] => {
          const plan = planUndoNamed(e, names);
          const later = plan.undoable ? changedSince(e, rows ?? []) : undefined;
          return [
            eventKey(e),
            later?.kind === 'gone' ? { event: e, key: plan.key, undoable: false, reason: `the object is gone (${later.description}).` } : plan,
          ];
        }),
      ),
    [rows, names],
  );
  const undoableShown = (rows ?? []).filter((e) => plans.get(eventKey(e))?.undoable);
  const select = (events: HistoryEvent[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const e of events) {
        if (on) next.set(eventKey(e), e);
        else next.delete(eventKey(e));
      }
      return next;
    });

  const columns: DataTableColumn<HistoryEvent>[] = [
    {
      id: 'undo',
      header: 'Undo',
      width: 200,
      render: (e) => <UndoCell event={e} names={names} plan={plans.get(eventKey(e))} selected={selected.has(eventKey(e))} onChange={(on) => select([e], on)} />,
    },
    {
      id: 'when',
      header: 'When',
      stackFirst: true,
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(e.created)}
        </Text>
      ),
    },
    { id: 'what', header: 'Event', stackFirst: true, render: (e) => <EventCell event={e} names={names} /> },
  ];
  if (showTarget) columns.push({ id: 'type', header: 'Target', render: (e) => <Text size="sm">{ID_TYPE_LABELS[e.idType] ?? e.idType}</Text> });

  return (
    <Stack>
      <Group gap="sm" wrap="wrap" aria-label={`${label}: undo`} role="group">
        {/* Looks disabled but keeps focus when nothing is selected: after an undo the selection is
            cleared, and the dialog hands focus back to this button (a disabled one would drop it). */}
        <Button data-disabled={!selected.size || undefined} aria-disabled={!selected.size} onClick={() => selected.size && setUndoing(true)}>
          Undo selected ({selected.size})
        </Button>
        <Button variant="default" onClick={() => select(undoableShown, true)} disabled={!undoableShown.length}>
          Select every undoable change shown
        </Button>
        <Button variant="subtle" onClick={() => setSelected(new Map())} disabled={!selected.size}>
          Clear selection
        </Button>
      </Group>
      <DataTable
        label={label}
        itemName="events"
        columns={columns}
        rows={rows}
        rowKey={eventKey}
        loading={props.loading}
        fetching={props.fetching}
        error={props.error}
        onRetry={props.onRetry}
        empty={props.empty}
      />
      {props.hasMore ? (
        <Button variant="default" onClick={props.onLoadMore} loading={props.loadingMore} style={{ alignSelf: 'center' }}>
          Load more
        </Button>
      ) : null}
      <UndoDialog
        opened={undoing}
        events={[...selected.values()]}
        onClose={(finished) => {
          setUndoing(false);
          if (finished) setSelected(new Map());
        }}
      />
    </Stack>
  );
}

/** A checkbox for an event that can be undone; the reason for one that cannot. */
function UndoCell({
  event,
  names,
  plan,
  selected,
  onChange,
}: {
  event: HistoryEvent;
  names: Names;
  plan?: UndoPlan;
  selected: boolean;
  onChange: (on: boolean) => void;
}) {
  if (!plan) return null;
  if (!plan.undoable)
    return (
      <Text size="xs" c="dimmed">
        No undo: {plan.reason}
      </Text>
    );
  return <Checkbox aria-label={`Select to undo: ${describeEvent(event, names)}`} checked={selected} onChange={(e) => onChange(e.currentTarget.checked)} />;
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
