/** The content table's columns: title (with status, replacement and upload state), type, owner, sharing and last change. */
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Item } from '../../api/index.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { ownerColumn } from '../../components/usernameColumn.tsx';
import { formatDate } from '../../lib/format.ts';
import { ContentStatusBadge, ItemAccessBadge, ItemThumbnail } from './badges.tsx';

export function contentColumns(): DataTableColumn<Item>[] {
  return [
    {
      id: 'title',
      header: 'Title',
      sortField: 'title',
      render: (item) => (
        <Group gap="sm" wrap="nowrap">
          <ItemThumbnail item={item} />
          <Stack gap={2}>
            <Group gap={6}>
              <Anchor component={Link} to={`/content/items/${item.id}`} fw={600} size="sm">
                {item.title || item.name || item.id}
              </Anchor>
              <ContentStatusBadge status={item.contentStatus} />
              <ReplacedByNote item={item} size="xs" />
            </Group>
            {item.itemStatus ? (
              <Text size="xs" c="orange">
                {item.itemStatus === 'partial' ? 'Upload not finished' : item.itemStatus === 'processing' ? 'Still being added…' : 'Adding it failed'}
              </Text>
            ) : item.snippet ? (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {item.snippet}
              </Text>
            ) : null}
          </Stack>
        </Group>
      ),
    },
    {
      id: 'type',
      header: 'Type',
      sortField: 'type',
      render: (item) => (
        <Group gap={6} wrap="nowrap">
          <ItemTypeIcon type={item.type} />
          <Text size="sm">{item.type}</Text>
        </Group>
      ),
    },
    ownerColumn(),
    { id: 'access', header: 'Shared with', render: (item) => <ItemAccessBadge access={item.access} /> },
    {
      id: 'modified',
      header: 'Changed',
      sortField: 'modified',
      render: (item) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(item.modified)}
        </Text>
      ),
    },
  ];
}
