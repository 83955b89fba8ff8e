/** The rows of the transfer wizard's item list: ids from the address the list does not hold, then the owner's items. */
import { Anchor, Badge, Checkbox, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Item } from '../../api/index.ts';
import { ITEM_ACCESS_LABELS, isItemAccessLevel } from '../../lib/itemAccess.ts';
import { formatDate } from '../../lib/format.ts';

interface RowsProps {
  extra: string[];
  items: Item[];
  selected: Set<string>;
  toggle: (id: string, on: boolean) => void;
  from: string;
}

export function TransferItemRows({ extra, items, selected, toggle, from }: RowsProps) {
  return (
    <>
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
              {isItemAccessLevel(item.access) ? ITEM_ACCESS_LABELS[item.access] : item.access}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatDate(item.modified)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}
