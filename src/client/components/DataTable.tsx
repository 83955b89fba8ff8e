/**
 * A paged, sortable table over one page of a portal list (`start` is 1-based, `total` from the
 * response). Loading, error and empty states are drawn inside the table's frame.
 *
 * On a phone (lib/narrow.ts) the rows stack: each row is a card and each cell carries its column's
 * name (global.css, .data-table-stacked), so nothing scrolls sideways. The table keeps its roles
 * explicitly there (display: block would drop them), and the visible names are hidden from
 * assistive technology, which reads the header cells instead.
 */
import { Paper, Table } from '@mantine/core';
import type { DataTableProps } from './dataTableTypes.ts';
import { useNarrowScreen } from '../lib/narrow.ts';
import { DataTableBody } from './DataTableBody.tsx';
import { DataTableHeaderRow } from './DataTableHeaderRow.tsx';
import { DataTablePager } from './DataTablePager.tsx';

export type { DataTableColumn, DataTablePaging, DataTableProps, DataTableSelection, DataTableSort } from './dataTableTypes.ts';

export function DataTable<T>(props: DataTableProps<T>) {
  const { label, itemName = 'rows', columns, rows, rowKey, sort, onSortChange, paging, onPageChange, onPageSizeChange, pageSizes = [10, 25, 50, 100] } = props;
  const { selection, selectAllRef } = props;
  const stacked = useNarrowScreen();
  // Roles kept when the stacked layout changes the elements' display (see the top of the file).
  const role = (r: string) => (stacked ? { role: r } : {});
  const selectable = selection && rows ? rows.filter((r) => !selection.disabled?.(r)) : [];
  const selectedOnPage = selection ? selectable.filter((r) => selection.selected.has(rowKey(r))).length : 0;
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
            <DataTableHeaderRow
              columns={columns}
              itemName={itemName}
              sort={sort}
              onSortChange={onSortChange}
              selection={selection}
              selectAllRef={selectAllRef}
              selectable={selectable}
              selectedOnPage={selectedOnPage}
              role={role}
            />
          </Table.Thead>
          <Table.Tbody {...role('rowgroup')}>
            <DataTableBody
              columns={columns}
              rows={rows}
              rowKey={rowKey}
              itemName={itemName}
              loading={props.loading}
              error={props.error}
              onRetry={props.onRetry}
              empty={props.empty}
              selection={selection}
              stacked={stacked}
              role={role}
            />
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {paging ? (
        <DataTablePager
          label={label}
          itemName={itemName}
          paging={paging}
          shown={rows?.length ?? 0}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          pageSizes={pageSizes}
        />
      ) : null}
    </Paper>
  );
}
