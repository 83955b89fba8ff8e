/**
 * A paged, sortable table over one page of a portal list (`start` is 1-based, `total` from the
 * response). Loading, error and empty states are drawn inside the table's frame.
 *
 * On a phone (lib/narrow.ts) the rows stack: each row is a card and each cell carries its column's
 * name (global.css, .data-table-stacked), so nothing scrolls sideways. The table keeps its roles
 * explicitly there (display: block would drop them), and the visible names are hidden from
 * assistive technology, which reads the header cells instead.
 */
import { Box, Checkbox, Group, Pagination, Paper, Select, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode, Ref } from 'react';
import { IconChevronDown, IconChevronUp, IconSelector } from './icons.tsx';
import { formatCount } from '../lib/format.ts';
import { useNarrowScreen } from '../lib/narrow.ts';
import { ErrorState, LoadingState } from './states.tsx';

export interface DataTableColumn<T> {
  id: string;
  header: string;
  /** The wire's sortField for this column, when the list can be sorted by it. */
  sortField?: string;
  render: (row: T) => ReactNode;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /** Stacked on a phone, this cell comes first (a state or the row's name, read before the rest). */
  stackFirst?: boolean;
}

export interface DataTableSort {
  field: string;
  order: 'asc' | 'desc';
}

export interface DataTablePaging {
  /** 1-based index of the first row shown. */
  start: number;
  /** Rows per page. */
  num: number;
  total: number;
  /** `total` is an estimate ("about"): pages past it are offered while `nextStart` says more follow. */
  estimated?: boolean;
  /** The response's nextStart (-1 on the last page). */
  nextStart?: number;
}

/** "Showing 1–10 of about 20,000 items", "No items", or "No items on this page" past the last one. */
function pagingSummary(paging: DataTablePaging, shown: number, itemName: string): string {
  if (paging.total === 0) return `No ${itemName}`;
  if (!shown) return `No ${itemName} on this page`;
  return `Showing ${formatCount(paging.start)}–${formatCount(paging.start + shown - 1)} of ${formatCount(paging.total, paging.estimated)} ${itemName}`;
}

export interface DataTableSelection<T> {
  /** Keys (rowKey) of the selected rows; may include rows on other pages. */
  selected: ReadonlySet<string>;
  /** Rows ticked or unticked (one row, or the whole page at once). */
  onChange: (rows: T[], selected: boolean) => void;
  /** Accessible name of a row's checkbox, e.g. "Select user1". */
  rowLabel: (row: T) => string;
  /** Rows that cannot be selected. */
  disabled?: (row: T) => boolean;
}

export interface DataTableProps<T> {
  /** Names the table for assistive technology, e.g. "Members". */
  label: string;
  /** Noun for the counter, e.g. "members". */
  itemName?: string;
  columns: DataTableColumn<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  sort?: DataTableSort;
  onSortChange?: (sort: DataTableSort) => void;
  paging?: DataTablePaging;
  onPageChange?: (start: number) => void;
  onPageSizeChange?: (num: number) => void;
  pageSizes?: number[];
  /** True while there is nothing to show yet. */
  loading?: boolean;
  /** True while a newer page is on its way (the current rows stay, dimmed). */
  fetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  empty?: ReactNode;
  minWidth?: number;
  /** Rows can be ticked for a bulk action. */
  selection?: DataTableSelection<T>;
  /** The "select all on this page" checkbox, for focus to come back to (e.g. after the selection was deleted). */
  selectAllRef?: Ref<HTMLInputElement>;
}

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

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, itemName = 'rows', columns, rows, rowKey, sort, onSortChange, paging, onPageChange, onPageSizeChange, pageSizes = [10, 25, 50, 100] } = props;
  const { selection, selectAllRef } = props;
  const stacked = useNarrowScreen();
  // Roles kept when the stacked layout changes the elements' display (see the top of the file).
  const role = (r: string) => (stacked ? { role: r } : {});
  const colSpan = columns.length + (selection ? 1 : 0);
  const selectable = selection && rows ? rows.filter((r) => !selection.disabled?.(r)) : [];
  const selectedOnPage = selection ? selectable.filter((r) => selection.selected.has(rowKey(r))).length : 0;
  let body: ReactNode;
  if (props.error && !rows) {
    body = (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan} p="md">
          <ErrorState error={props.error} title={`Could not load ${itemName}`} onRetry={props.onRetry} />
        </Table.Td>
      </Table.Tr>
    );
  } else if (props.loading || !rows) {
    body = (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan}>
          <LoadingState label={`Loading ${itemName}…`} />
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows.length === 0) {
    body = (
      <Table.Tr {...role('row')}>
        <Table.Td {...role('cell')} colSpan={colSpan}>
          {props.empty ?? <Text ta="center" c="dimmed" py="xl">{`No ${itemName}.`}</Text>}
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
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

  const current = paging ? Math.floor((paging.start - 1) / paging.num) + 1 : 1;
  // An estimated total may fall short: the page after this one stays reachable while more follow.
  const pages = paging ? Math.max(1, Math.ceil(paging.total / paging.num), paging.estimated && (paging.nextStart ?? -1) > 0 ? current + 1 : 0) : 1;
  const page = Math.min(pages, current);

  return (
    <Paper withBorder radius="md" className={stacked ? 'data-table-stacked' : undefined}>
      <Table.ScrollContainer minWidth={stacked ? 0 : (props.minWidth ?? 720)}>
        <Table
          {...role('table')}
          aria-label={label}
          aria-busy={props.loading || props.fetching ? true : undefined}
          highlightOnHover
          verticalSpacing="sm"
          horizontalSpacing="md"
          style={{ opacity: props.fetching ? 0.6 : 1, transition: 'opacity 120ms' }}
        >
          <Table.Thead {...role('rowgroup')}>
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
          </Table.Thead>
          <Table.Tbody {...role('rowgroup')}>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {paging ? (
        <Group justify="space-between" px="md" py="sm" gap="sm" wrap="wrap" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed" aria-live="polite">
            {pagingSummary(paging, rows?.length ?? 0, itemName)}
          </Text>
          <Group gap="md" wrap="wrap">
            {onPageSizeChange ? (
              <Group gap={6}>
                <Text size="sm" c="dimmed" component="span" aria-hidden="true">
                  Rows per page
                </Text>
                <Select
                  aria-label="Rows per page"
                  size="xs"
                  w={76}
                  allowDeselect={false}
                  data={pageSizes.map(String)}
                  value={String(paging.num)}
                  onChange={(v) => v && onPageSizeChange(Number(v))}
                  comboboxProps={{ withinPortal: true }}
                />
              </Group>
            ) : null}
            <Box component="nav" aria-label={`${label} pages`}>
              <Pagination
                size="sm"
                total={pages}
                value={page}
                onChange={(p) => onPageChange?.((p - 1) * paging.num + 1)}
                getControlProps={(control) => ({ 'aria-label': `${control[0].toUpperCase()}${control.slice(1)} page` })}
                getItemProps={(p) => ({ 'aria-label': `Page ${p}`, 'aria-current': p === page ? 'page' : undefined })}
              />
            </Box>
          </Group>
        </Group>
      ) : null}
    </Paper>
  );
}
