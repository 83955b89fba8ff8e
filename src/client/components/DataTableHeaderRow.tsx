/** The header row of a DataTable: "select all on this page" and the column names, sortable ones as buttons. */
import { Checkbox, Table, UnstyledButton } from '@mantine/core';
import type { Ref } from 'react';
import type { DataTableColumn, DataTableSelection, DataTableSort } from './dataTableTypes.ts';
import { IconChevronDown, IconChevronUp, IconSelector } from './icons.tsx';
import type { RoleProps } from './DataTableBody.tsx';

function SortHeader({ column, sort, onSortChange }: { column: DataTableColumn<unknown>; sort?: DataTableSort; onSortChange?: (s: DataTableSort) => void }) {
  const active = sort?.field === column.sortField;
  const Icon = active ? (sort!.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  const next: DataTableSort = { field: column.sortField!, order: active && sort!.order === 'asc' ? 'desc' : 'asc' };
  return (
    <UnstyledButton
      onClick={() => onSortChange?.(next)}
      aria-label={`${column.header}: sort ${next.order === 'asc' ? 'ascending' : 'descending'}`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, fontSize: 'inherit', borderRadius: 4 }}
    >
      <span>{column.header}</span>
      <Icon size={14} style={{ opacity: active ? 1 : 0.45 }} />
    </UnstyledButton>
  );
}

export function DataTableHeaderRow<T>({
  columns,
  itemName,
  sort,
  onSortChange,
  selection,
  selectAllRef,
  selectable,
  selectedOnPage,
  role,
}: {
  columns: DataTableColumn<T>[];
  itemName: string;
  sort?: DataTableSort;
  onSortChange?: (sort: DataTableSort) => void;
  selection?: DataTableSelection<T>;
  selectAllRef?: Ref<HTMLInputElement>;
  /** The rows on this page that can be ticked, and how many of them are. */
  selectable: T[];
  selectedOnPage: number;
  role: RoleProps;
}) {
  return (
    <Table.Tr {...role('row')}>
      {selection ? (
        <Table.Th w={40} {...role('columnheader')}>
          <Checkbox
            ref={selectAllRef}
            aria-label={`Select all ${itemName} on this page`}
            checked={selectable.length > 0 && selectedOnPage === selectable.length}
            indeterminate={selectedOnPage > 0 && selectedOnPage < selectable.length}
            disabled={selectable.length === 0}
            onChange={() => selection.onChange(selectable, selectedOnPage < selectable.length)}
          />
        </Table.Th>
      ) : null}
      {columns.map((c) => {
        const active = sort && c.sortField && sort.field === c.sortField;
        return (
          <Table.Th
            key={c.id}
            {...role('columnheader')}
            w={c.width}
            ta={c.align}
            aria-sort={c.sortField ? (active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}
          >
            {c.sortField && onSortChange ? <SortHeader column={c as DataTableColumn<unknown>} sort={sort} onSortChange={onSortChange} /> : c.header}
          </Table.Th>
        );
      })}
    </Table.Tr>
  );
}
