/**
 * The transfer wizard's first step: the owner's items, with the chosen ones ticked (all, or those
 * passed as `items=`). The items passed in the address come first, together, instead of scattered
 * through the alphabetical list; a search over titles, types and tags narrows the rows, and "Show
 * selected only" reviews the choice. Select all / none act on the rows shown.
 */
import { Button, Checkbox, Group, ScrollArea, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { Item } from '../../api/index.ts';
import { EmptyPanel } from '../../components/states.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { formatCount } from '../../lib/format.ts';
import { TransferItemRows } from './TransferItemRows.tsx';

interface TransferItemListProps {
  items: Item[];
  extra: string[];
  selected: Set<string>;
  onChange: (s: Set<string>) => void;
  /** The ids the wizard was opened with: listed first. */
  chosenFirst: readonly string[];
  total: number;
  /** The portal estimated the total (the listing stopped before the last item). */
  totalEstimated?: boolean;
  from: string;
}

const matches = (item: Item, words: string[]) => {
  const text = `${item.title} ${item.type} ${(item.tags ?? []).join(' ')}`.toLowerCase();
  return words.every((w) => text.includes(w));
};

export function TransferItemList({ items, extra, selected, onChange, chosenFirst, total, totalEstimated, from }: TransferItemListProps) {
  const [search, setSearch] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  const ordered = useMemo(() => {
    const first = new Set(chosenFirst);
    return [...items.filter((i) => first.has(i.id)), ...items.filter((i) => !first.has(i.id))];
  }, [items, chosenFirst]);
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shownItems = ordered.filter((i) => (!selectedOnly || selected.has(i.id)) && matches(i, words));
  const shownExtra = words.length ? [] : extra.filter((id) => !selectedOnly || selected.has(id));
  const shown = [...shownExtra, ...shownItems.map((i) => i.id)];
  const all = [...extra, ...items.map((i) => i.id)];
  const count = all.filter((id) => selected.has(id)).length;
  const shownCount = shown.filter((id) => selected.has(id)).length;
  const setShown = (on: boolean) => {
    const next = new Set(selected);
    for (const id of shown)
      if (on) next.add(id);
      else next.delete(id);
    onChange(next);
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  if (!all.length) return <EmptyPanel title={`${from} owns no items`} description="There is nothing to transfer." />;
  return (
    <Stack gap="xs">
      <Group gap="md" align="flex-end">
        <TextInput
          type="search"
          label={`Search the items of ${from}`}
          placeholder="Title, type or tag"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Switch label="Show selected only" checked={selectedOnly} onChange={(e) => setSelectedOnly(e.currentTarget.checked)} mb={8} />
      </Group>
      <Group justify="space-between">
        <Text size="sm" aria-live="polite" data-testid="transfer-selection">
          {formatCount(count)} of {formatCount(all.length)} item{all.length === 1 ? '' : 's'} selected
          {total > items.length ? ` (the first ${formatCount(items.length)} of ${formatCount(total, totalEstimated)} are listed)` : ''}
          {shown.length < all.length ? ` · ${formatCount(shown.length)} shown` : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={() => setShown(true)} disabled={!shown.length}>
            {shown.length < all.length ? 'Select shown' : 'Select all'}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setShown(false)} disabled={!shown.length}>
            {shown.length < all.length ? 'Clear shown' : 'Select none'}
          </Button>
        </Group>
      </Group>
      {shown.length ? (
        <ScrollArea.Autosize mah={440} type="auto">
          <Table aria-label={`Items of ${from}`} striped stickyHeader verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={shown.length < all.length ? 'Select the items shown' : 'Select all items'}
                    checked={shownCount === shown.length}
                    indeterminate={shownCount > 0 && shownCount < shown.length}
                    onChange={(e) => setShown(e.currentTarget.checked)}
                  />
                </Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Shared</Table.Th>
                <Table.Th>Modified</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <TransferItemRows extra={shownExtra} items={shownItems} selected={selected} toggle={toggle} from={from} />
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="dimmed" py="md" ta="center">
          {selectedOnly && !count ? 'No items are selected.' : 'No items match the search.'}
        </Text>
      )}
    </Stack>
  );
}
