/**
 * Related items in both directions, each with the relationship that links it; add a relationship
 * (the type's allowed origin and destination types are checked first) or remove one.
 */
import { Stack } from '@mantine/core';
import type { Item } from '../../api/index.ts';
import { AddRelationship } from './AddRelationship.tsx';
import { RelatedList } from './RelatedList.tsx';

export function RelatedItemsPanel({ item }: { item: Item }) {
  return (
    <Stack gap="lg">
      {/* Neither list says "depends on": which end uses the other differs by type (a Map2Service map
          uses its service, but a Map2AppConfig map is used by its app), so each row says it in words. */}
      <RelatedList item={item} direction="forward" title="Related from this item (it is the origin)" />
      <RelatedList item={item} direction="reverse" title="Related to this item (it is the destination)" />
      <AddRelationship item={item} />
    </Stack>
  );
}
