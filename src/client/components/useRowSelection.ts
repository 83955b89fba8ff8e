/**
 * The rows ticked in a DataTable, kept by id across pages and refetches (a Map, so the rows
 * themselves are at hand for bulk actions), and the table's `selection` prop over them.
 */
import { useState } from 'react';
import type { DataTableSelection } from './DataTable.tsx';

export function useRowSelection<T extends { id: string }>(rowLabel: (row: T) => string) {
  const [selected, setSelected] = useState<Map<string, T>>(new Map());
  const selection: DataTableSelection<T> = {
    selected: new Set(selected.keys()),
    rowLabel,
    onChange: (rows, on) =>
      setSelected((prev) => {
        const next = new Map(prev);
        for (const r of rows) {
          if (on) next.set(r.id, r);
          else next.delete(r.id);
        }
        return next;
      }),
  };
  return { selected, setSelected, selection };
}
