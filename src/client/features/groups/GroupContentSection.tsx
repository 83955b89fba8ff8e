/**
 * A group's content: the items shared with it that the member may see, a page at a time, each with
 * its type, a link to its page, its owner and when it last changed.
 */
import { Anchor, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { GroupRecord, Item, ItemSortField } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDate } from '../../lib/format.ts';
import { groupContentQuery } from '../../api/queries/items.ts';
import { ownerColumn } from '../../components/usernameColumn.tsx';

export function GroupContentSection({ group }: { group: Pick<GroupRecord, 'id' | 'title'> }) {
  const [paging, setPaging] = useState({ start: 1, num: 10 });
  const [sort, setSort] = useState<{ field: ItemSortField; order: 'asc' | 'desc' }>({ field: 'modified', order: 'desc' });
  const content = useQuery(groupContentQuery(group.id, { start: paging.start, num: paging.num, sortField: sort.field, sortOrder: sort.order }));

  const columns: DataTableColumn<Item>[] = [
    {
      id: 'title',
      header: 'Title',
      sortField: 'title',
      render: (item) => (
        <Group gap={8} wrap="nowrap">
          <span aria-hidden style={{ display: 'inline-flex', flex: 'none' }}>
            <ItemTypeIcon type={item.type} />
          </span>
          <Anchor component={Link} to={`/content/items/${item.id}`} size="sm">
            {item.title}
          </Anchor>
        </Group>
      ),
    },
    { id: 'type', header: 'Type', sortField: 'type', render: (item) => <Text size="sm">{item.type}</Text> },
    ownerColumn(),
    { id: 'modified', header: 'Modified', sortField: 'modified', render: (item) => <Text size="sm">{formatDate(item.modified)}</Text> },
  ];

  return (
    <section aria-labelledby="content-heading" style={{ marginBottom: 'var(--mantine-spacing-xl)' }}>
      <Title order={2} fz="lg" id="content-heading" mb="sm">
        Content
      </Title>
      <DataTable
        label="Content shared with the group"
        itemName="items"
        columns={columns}
        rows={content.data?.results}
        rowKey={(item) => item.id}
        loading={content.isPending}
        fetching={content.isPlaceholderData}
        error={content.isError ? content.error : undefined}
        onRetry={() => content.refetch()}
        sort={sort}
        onSortChange={(s) => {
          setSort({ field: s.field as ItemSortField, order: s.order });
          setPaging((p) => ({ ...p, start: 1 }));
        }}
        paging={content.data ? { start: content.data.start || paging.start, num: paging.num, total: content.data.total } : undefined}
        onPageChange={(start) => setPaging((p) => ({ ...p, start }))}
        onPageSizeChange={(num) => setPaging({ start: 1, num })}
        empty={
          <EmptyPanel
            title="Nothing shared with this group yet"
            description="Items shared with the group appear here. Share an item from its page, under Sharing."
          />
        }
        minWidth={560}
      />
    </section>
  );
}
