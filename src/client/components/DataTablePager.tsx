/** The foot of a DataTable: which rows are shown, rows per page, and the page buttons. */
import { Box, Group, Pagination, Select, Text } from '@mantine/core';
import { formatCount } from '../lib/format.ts';
import type { DataTablePaging } from './dataTableTypes.ts';

/** "Showing 1–10 of about 20,000 items", "No items", or "No items on this page" past the last one. */
function pagingSummary(paging: DataTablePaging, shown: number, itemName: string): string {
  if (paging.total === 0) return `No ${itemName}`;
  if (!shown) return `No ${itemName} on this page`;
  return `Showing ${formatCount(paging.start)}–${formatCount(paging.start + shown - 1)} of ${formatCount(paging.total, paging.estimated)} ${itemName}`;
}

export function DataTablePager({
  label,
  itemName,
  paging,
  shown,
  onPageChange,
  onPageSizeChange,
  pageSizes,
}: {
  label: string;
  itemName: string;
  paging: DataTablePaging;
  shown: number;
  onPageChange?: (start: number) => void;
  onPageSizeChange?: (num: number) => void;
  pageSizes: number[];
}) {
  const current = Math.floor((paging.start - 1) / paging.num) + 1;
  // An estimated total may fall short: the page after this one stays reachable while more follow.
  const pages = Math.max(1, Math.ceil(paging.total / paging.num), paging.estimated && (paging.nextStart ?? -1) > 0 ? current + 1 : 0);
  const page = Math.min(pages, current);
  return (
    <Group justify="space-between" px="md" py="sm" gap="sm" wrap="wrap" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {pagingSummary(paging, shown, itemName)}
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
  );
}
