/** The rows of a DataTable, or in their place its loading, error or empty state inside the table's frame. */
import { Checkbox, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DataTableColumn, DataTableSelection } from './dataTableTypes.ts';
import { ErrorState, LoadingState } from './states.tsx';

/** The ARIA role an element keeps when the stacked (phone) layout changes its display; nothing otherwise. */
export type RoleProps = (role: string) => { role?: string };

export function DataTableBody<T>({
  columns,
  rows,
  rowKey,
  itemName,
  loading,
  error,
  onRetry,
  empty,
  selection,
  stacked,
  role,
}: {
  columns: DataTableColumn<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  itemName: string;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  selection?: DataTableSelection<T>;
  stacked: boolean;
  role: RoleProps;
}) {
  const colSpan = columns.length + (selection ? 1 : 0);
  if (error && !rows) {
    return (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan} p="md">
          <ErrorState error={error} title={`Could not load ${itemName}`} onRetry={onRetry} />
        </Table.Td>
      </Table.Tr>
    );
  }
  if (loading || !rows) {
    return (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan}>
          <LoadingState label={`Loading ${itemName}…`} />
        </Table.Td>
      </Table.Tr>
    );
  }
  if (rows.length === 0) {
    return (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan}>
          {empty ?? <Text ta="center" c="dimmed" py="xl">{`No ${itemName}.`}</Text>}
        </Table.Td>
      </Table.Tr>
    );
  }
  return rows.map((row) => (
    <Table.Tr key={rowKey(row)} {...role('row')} bg={selection?.selected.has(rowKey(row)) ? 'var(--mantine-primary-color-light)' : undefined}>
      {selection ? (
        <Table.Td w={40} {...role('cell')} data-stack-first>
          <Checkbox
            aria-label={selection.rowLabel(row)}
            checked={selection.selected.has(rowKey(row))}
            disabled={selection.disabled?.(row)}
            onChange={(e) => selection.onChange([row], e.currentTarget.checked)}
          />
        </Table.Td>
      ) : null}
      {columns.map((c) => (
        <Table.Td key={c.id} ta={c.align} {...role('cell')} data-stack-first={c.stackFirst || undefined} data-unlabelled={!c.header || undefined}>
          {stacked && c.header ? (
            <span className="data-table-label" aria-hidden="true">
              {c.header}
            </span>
          ) : null}
          {stacked ? <div className="data-table-value">{c.render(row)}</div> : c.render(row)}
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}
