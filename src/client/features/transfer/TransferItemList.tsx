/** The transfer wizard's first step: the owner's items, with the chosen ones ticked (all, or those passed as `items=`). */
import { Anchor, Badge, Button, Checkbox, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Item } from '../../api/index.ts';
import { EmptyPanel } from '../../components/states.tsx';
import { formatCount, formatDate } from '../../lib/format.ts';

export function TransferItemList({
  items,
  extra,
  selected,
  onChange,
  total,
  totalEstimated,
  from,
}: {
  items: Item[];
  extra: string[];
  selected: Set<string>;
  onChange: (s: Set<string>) => void;
  total: number;
  /** The portal estimated the total (the listing stopped before the last item). */
  totalEstimated?: boolean;
  from: string;
}) {
  const all = [...extra, ...items.map((i) => i.id)];
  const count = all.filter((id) => selected.has(id)).length;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  if (!all.length) return <EmptyPanel title={`${from} owns no items`} description="There is nothing to transfer." />;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" aria-live="polite" data-testid="transfer-selection">
          {formatCount(count)} of {formatCount(all.length)} item{all.length === 1 ? '' : 's'} selected
          {total > items.length ? ` (the first ${formatCount(items.length)} of ${formatCount(total, totalEstimated)} are listed)` : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={() => onChange(new Set(all))}>
            Select all
          </Button>
          <Button size="xs" variant="subtle" onClick={() => onChange(new Set())}>
            Select none
          </Button>
        </Group>
      </Group>
      <ScrollArea.Autosize mah={440} type="auto">
        <Table aria-label={`Items of ${from}`} striped stickyHeader verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all items"
                  checked={count === all.length}
                  indeterminate={count > 0 && count < all.length}
                  onChange={(e) => onChange(e.currentTarget.checked ? new Set(all) : new Set())}
                />
              </Table.Th>
              <Table.Th>Title</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Shared</Table.Th>
              <Table.Th>Modified</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {extra.map((id) => (
              <Table.Tr key={id}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${id}`} checked={selected.has(id)} onChange={(e) => toggle(id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td colSpan={4}>
                  <Text size="sm" ff="monospace">
                    {id}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Not among {from}'s items — the pre-check will say why.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${item.title}`} checked={selected.has(item.id)} onChange={(e) => toggle(item.id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/content/items/${item.id}`} size="sm" fw={600}>
                    {item.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{item.type}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray" tt="none" size="sm">
                    {item.access}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(item.modified)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
