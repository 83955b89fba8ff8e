/**
 * "— use <title>" beside a Deprecated badge: the replacement a deprecated item names (the portal's
 * local `replacedBy`, set by "Deprecate and point to a replacement"). Nothing when the portal does
 * not keep one, or when the replacement cannot be read (gone, or not shared with this user): the
 * badge alone then says "Deprecated".
 */
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Item } from '../../api/index.ts';
import { itemQuery } from '../../api/queries/items.ts';

export function ReplacedByNote({ item, size = 'sm' }: { item: Pick<Item, 'contentStatus' | 'replacedBy'>; size?: 'xs' | 'sm' }) {
  const id = item.contentStatus === 'deprecated' ? item.replacedBy : undefined;
  const replacement = useQuery({ ...itemQuery(id ?? ''), enabled: !!id, retry: false, staleTime: 60_000 });
  if (!id || !replacement.data) return null;
  const title = replacement.data.title || replacement.data.id;
  return (
    <Text size={size} component="span" data-testid="replaced-by">
      — use{' '}
      <Anchor component={Link} to={`/content/items/${id}`} size={size} aria-label={`Deprecated — use ${title}`}>
        {title}
      </Anchor>
    </Text>
  );
}
