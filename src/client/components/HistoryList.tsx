/**
 * A list of history events in words, shared by the Activity page and every History section: a
 * checkbox on each event that can be undone (the others say why not), "Undo selected" for the
 * ticked ones (the undo dialog), each event's before/after on demand, and "Load more". The rows of
 * one replacement run show as one entry (lib/history/group.ts), opened to its rows, ticked as one.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import type { HistoryEvent } from '../api/index.ts';
import { ID_TYPE_LABELS } from '../../shared/contract/history.ts';
import { formatDateTime } from '../lib/format.ts';
import { eventKey } from '../lib/history/describe.ts';
import { entryEvents, groupReplacements, type HistoryEntry } from '../lib/history/group.ts';
import { useHistoryNames } from '../lib/history/names.ts';
import { changedSince, planUndoNamed, type UndoPlan } from '../lib/history/undo.ts';
import { DataTable, type DataTableColumn } from './DataTable.tsx';
import { EntryEventCell, EntryUndoCell } from './HistoryCells.tsx';
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

  const entries = useMemo(() => (rows ? groupReplacements(rows) : undefined), [rows]);
  const columns: DataTableColumn<HistoryEntry>[] = [
    {
      id: 'undo',
      header: 'Undo',
      width: 200,
      render: (entry) => (
        <EntryUndoCell
          entry={entry}
          names={names}
          plans={plans}
          isSelected={(e) => selected.has(eventKey(e))}
          onChange={(on) =>
            select(
              entryEvents(entry).filter((e) => plans.get(eventKey(e))?.undoable),
              on,
            )
          }
        />
      ),
    },
    {
      id: 'when',
      header: 'When',
      stackFirst: true,
      render: ({ event }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(event.created)}
        </Text>
      ),
    },
    { id: 'what', header: 'Event', stackFirst: true, render: (entry) => <EntryEventCell entry={entry} names={names} /> },
  ];
  if (showTarget) columns.push({ id: 'type', header: 'Target', render: ({ event }) => <Text size="sm">{ID_TYPE_LABELS[event.idType] ?? event.idType}</Text> });

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
        rows={entries}
        rowKey={(entry) => entry.key}
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
