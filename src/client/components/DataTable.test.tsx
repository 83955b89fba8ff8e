/** DataTable's pager with an estimated total (the local portal's search on many matches). */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { DataTable, type DataTablePaging } from './DataTable.tsx';

interface Row {
  id: string;
}

function renderPage(paging: DataTablePaging, rows: Row[]) {
  return renderWithProviders(
    <DataTable
      label="Content"
      itemName="items"
      columns={[{ id: 'id', header: 'Id', render: (r: Row) => r.id }]}
      rows={rows}
      rowKey={(r) => r.id}
      paging={paging}
      onPageChange={() => undefined}
    />,
  );
}

const rows = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ id: `item ${from + i}` }));
const pages = () => within(screen.getByRole('navigation', { name: 'Content pages' }));

describe('DataTable paging', () => {
  it('says "about" for an estimated total and groups the digits', () => {
    renderPage({ start: 1, num: 10, total: 20000, estimated: true, nextStart: 11 }, rows(10));
    expect(screen.getByText('Showing 1–10 of about 20,000 items')).toBeInTheDocument();
    expect(pages().getByRole('button', { name: 'Page 2000' })).toBeInTheDocument();
  });

  it('an exact total has no "about"', () => {
    renderPage({ start: 11, num: 10, total: 1234, nextStart: 21 }, rows(10, 11));
    expect(screen.getByText('Showing 11–20 of 1,234 items')).toBeInTheDocument();
  });

  it('keeps the next page reachable when an estimate fell short of the matches', () => {
    renderPage({ start: 31, num: 10, total: 30, estimated: true, nextStart: 41 }, rows(10, 31));
    expect(pages().getByRole('button', { name: 'Page 4' })).toHaveAttribute('aria-current', 'page');
    expect(pages().getByRole('button', { name: 'Page 5' })).toBeInTheDocument();
  });

  it('a page past the last match says so', () => {
    renderPage({ start: 41, num: 10, total: 35, nextStart: -1 }, []);
    expect(screen.getByText('No items on this page')).toBeInTheDocument();
  });
});
