/**
 * What a delete of many items takes from whom: the selected items counted per owner, where they go
 * (the recycle bin for 14 days, or nowhere on a portal without one), and, for a large or multi-owner
 * delete, the count to be typed before the red button enables.
 */
import { Alert, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { hasRecycleBin, type Item } from '../../api/index.ts';
import { portalQuery } from '../../api/queries/portal.ts';

/** From this many items, or from more than one owner, the count must be typed. */
const TYPED_COUNT_FROM = 10;

export const needsTypedCount = (items: readonly Item[]) => items.length >= TYPED_COUNT_FROM || new Set(items.map((i) => i.owner)).size > 1;

function perOwner(items: readonly Item[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i.owner, (counts.get(i.owner) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function useRecycleBin(): boolean | undefined {
  const portal = useQuery(portalQuery());
  return portal.data ? hasRecycleBin(portal.data) : undefined;
}

export function BulkDeleteSummary({ items, typed, onTyped }: { items: readonly Item[]; typed: string; onTyped: (v: string) => void }) {
  const recycles = useRecycleBin();
  const owners = perOwner(items);
  return (
    <>
      {recycles ? (
        <Alert color="blue" variant="light" title="They go to the recycle bin">
          Deleted items stay in the Recycle bin for 14 days, with their data, sharing and relationships, and can be restored from there.
        </Alert>
      ) : (
        <Alert color="red" variant="light" title="This is final">
          This portal has no recycle bin: the items, their data and their relationships are removed for good.
        </Alert>
      )}
      {owners.length > 1 || items.length >= TYPED_COUNT_FROM ? (
        <Table withTableBorder striped aria-label="Items deleted per owner">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Owner</Table.Th>
              <Table.Th ta="right">Items deleted</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {owners.slice(0, 20).map(([owner, n]) => (
              <Table.Tr key={owner}>
                <Table.Td>{owner}</Table.Td>
                <Table.Td ta="right">{n}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          {owners.length > 20 ? <Table.Caption>…and {owners.length - 20} more owners</Table.Caption> : null}
        </Table>
      ) : null}
      {needsTypedCount(items) ? (
        <TextInput
          label={`Type ${items.length} to confirm deleting ${items.length} items of ${owners.length} owner${owners.length === 1 ? '' : 's'}`}
          value={typed}
          onChange={(e) => onTyped(e.currentTarget.value)}
          inputMode="numeric"
          autoComplete="off"
          data-autofocus
        />
      ) : (
        <Text size="sm" c="dimmed">
          {owners.length === 1 ? `All owned by ${owners[0][0]}.` : null}
        </Text>
      )}
    </>
  );
}

/** Where one deleted item goes, said in its Delete dialog. */
export function DeleteFate() {
  const recycles = useRecycleBin();
  return (
    <Text size="sm">
      {recycles
        ? 'The item goes to the Recycle bin for 14 days, with its data, sharing and relationships; it can be restored from there.'
        : 'The item, its data and its relationships are removed for good.'}
    </Text>
  );
}
