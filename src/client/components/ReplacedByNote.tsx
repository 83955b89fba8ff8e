/**
 * "— use <title>" beside a Deprecated badge: the replacement a deprecated item names (the portal's
 * local `replacedBy`, set by "Deprecate and point to a replacement"). Nothing when the portal does
 * not keep one, or when the replacement cannot be read (gone, or not shared with this user): the
 * badge alone then says "Deprecated".
 *
 * Lists that carry only an item's status (the dependency views' rows) leave `replacedBy` out: the
 * note then reads the deprecated item itself for it, so only deprecated rows cost a request.
 */
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Item } from '../api/index.ts';
import { itemQuery } from '../api/queries/items.ts';

type DeprecatedItem = Pick<Item, 'id' | 'contentStatus'> & { replacedBy?: Item['replacedBy'] };

export function ReplacedByNote({ item, size = 'sm' }: { item: DeprecatedItem; size?: 'xs' | 'sm' }) {
  const deprecated = item.contentStatus === 'deprecated';
  const readSelf = deprecated && !('replacedBy' in item);
  const self = useQuery({ ...itemQuery(item.id), enabled: readSelf, retry: false, staleTime: 60_000 });
  const id = deprecated ? (readSelf ? self.data?.replacedBy : item.replacedBy) : undefined;
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
