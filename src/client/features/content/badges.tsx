/** How an item's sharing and content status read, and its thumbnail. */
import { Badge, Image, ThemeIcon } from '@mantine/core';
import { itemThumbnailHref, type ContentStatus, type Item } from '../../api/index.ts';
import { IconInbox } from '../../components/icons.tsx';

const ACCESS = {
  private: { label: 'Owner only', color: 'gray' },
  shared: { label: 'Groups', color: 'grape' },
  org: { label: 'Organization', color: 'blue' },
  public: { label: 'Everyone', color: 'green' },
} as const;

export function ItemAccessBadge({ access }: { access: Item['access'] }) {
  const a = ACCESS[access] ?? ACCESS.private;
  return (
    <Badge variant="light" color={a.color} tt="none">
      {a.label}
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

export function ItemThumbnail({ item, size = 40 }: { item: Pick<Item, 'id' | 'thumbnail'>; size?: number }) {
  const href = itemThumbnailHref(item, size > 200 ? 400 : 200);
  if (!href) {
    return (
      <ThemeIcon variant="light" color="gray" size={size} radius="sm" aria-hidden>
        <IconInbox size={Math.round(size / 2)} />
      </ThemeIcon>
    );
  }
  return <Image src={href} alt="" w={size} h={size * 0.66} fit="cover" radius="sm" />;
}
