/**
 * How an item's sharing and content status read, as badges. In components (not the content
 * feature) because the content pages and the dependency views both show them, and features do not
 * import each other.
 */
import { Badge } from '@mantine/core';
import type { ContentStatus, Item } from '../api/index.ts';
import { ITEM_ACCESS_LABELS, isItemAccessLevel, type ItemAccessLevel } from '../lib/itemAccess.ts';

const ACCESS_COLORS: Record<ItemAccessLevel, string> = { private: 'gray', shared: 'grape', org: 'blue', public: 'green' };

export function ItemAccessBadge({ access }: { access: Item['access'] }) {
  const level = isItemAccessLevel(access) ? access : 'private';
  return (
    <Badge variant="light" color={ACCESS_COLORS[level]} tt="none">
      {ITEM_ACCESS_LABELS[level]}
    </Badge>
  );
}

export const CONTENT_STATUS_LABELS: Record<ContentStatus, string> = {
  org_authoritative: 'Authoritative',
  public_authoritative: 'Authoritative (public)',
  deprecated: 'Deprecated',
};

export function ContentStatusBadge({ status }: { status: ContentStatus | null | undefined }) {
  if (!status) return null;
  return (
    <Badge
      variant={status === 'deprecated' ? 'outline' : 'filled'}
      color={status === 'deprecated' ? 'orange' : 'teal'}
      tt="none"
      data-testid="content-status-badge"
    >
      {CONTENT_STATUS_LABELS[status]}
    </Badge>
  );
}
