/** The shapes a DataTable is given: its columns, sort, paging, selection and props (apart from the component, so its parts share them). */
import type { ReactNode, Ref } from 'react';

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
