/**
 * The item page's header: thumbnail, title with its status, replacement and protection badges, what
 * the item is and who owns it, its id, access and tags, and the item's actions beside them.
 */
import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { Item } from '../../api/index.ts';
import { CopyValue } from '../../components/CopyValue.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { IconLock } from '../../components/icons.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { ContentStatusBadge, ItemAccessBadge, ItemThumbnail } from './badges.tsx';
import { ItemActions } from './ItemActions.tsx';

export function ItemHeader({ item }: { item: Item }) {
  // Wraps in narrow windows (320 px, 200 % zoom): the actions go below the title instead of past the edge.
  return (
    <Group align="flex-start" gap="lg" wrap="wrap">
      <ItemThumbnail item={item} size={120} />
      <Stack gap={4} style={{ flex: '1 1 12rem', minWidth: 0 }}>
        <Group gap="xs">
          <Title order={1} size="h2">
            {item.title}
          </Title>
          <ContentStatusBadge status={item.contentStatus} />
          <ReplacedByNote item={item} />
          {item.protected ? (
            <Badge color="gray" variant="light" leftSection={<IconLock size={12} />} tt="none">
              Delete protected
            </Badge>
          ) : null}
        </Group>
        <Group gap={6} wrap="nowrap" align="flex-start">
          <Text c="dimmed" size="sm" component="span" style={{ display: 'flex', paddingTop: 2 }}>
            <ItemTypeIcon type={item.type} />
          </Text>
          <Text c="dimmed" size="sm">
            {item.type} · owned by <b>{item.owner}</b> · changed {formatDateTime(item.modified)} · {sizeOrSource(item)}
          </Text>
        </Group>
        <CopyValue inline label="Item ID" value={item.id} copyLabel="Copy item ID" />
        <Group gap="xs">
          <ItemAccessBadge access={item.access} />
          {item.tags.map((t) => (
            // Free text: a long tag is cut with an ellipsis inside the header instead of running off it.
            <Badge
              key={t}
              variant="outline"
              color="gray"
              tt="none"
              maw="100%"
              title={t}
              styles={{ root: { overflow: 'hidden' }, label: { overflow: 'hidden' } }}
            >
              {t}
            </Badge>
          ))}
        </Group>
      </Stack>
      <ItemActions item={item} />
    </Group>
  );
}

/** What the header says after the date: the data's size, where a URL item points, or that there is nothing. */
function sizeOrSource(item: Item): string {
  if (item.size) return formatBytes(item.size);
  if (item.url) {
    try {
      return `links to ${new URL(item.url).host}`;
    } catch {
      return 'links to a URL';
    }
  }
  return 'no data';
}
