/**
 * Content: the member's items or, for administrators, the organization's — filtered by owner,
 * type, folder, status and sharing, sorted, paged, with a multi-selection for bulk actions.
 */
import { Anchor, Autocomplete, Group, Paper, SegmentedControl, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type Item } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ResumeCopiesSlot } from '../../components/CopySlot.tsx';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FilterBar } from '../../components/FilterBar.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDate } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ITEM_ACCESS_LABELS } from '../../lib/itemAccess.ts';
import { AddItemModal } from './AddItemModal.tsx';
import { ContentStatusBadge, ItemAccessBadge, ItemThumbnail } from './badges.tsx';
import { ContentSelectionBar } from './ContentSelectionBar.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { addItemPermission, viewOrgContentPermission } from './permissions.ts';
import { groupChoicesQuery } from '../../api/queries/groups.ts';
import { foldersQuery } from '../../api/queries/items.ts';
import { itemsQuery } from './queries.ts';
import { COMMON_ITEM_TYPES, contentListToParams, parseContentList, type ContentListState } from './schemas.ts';
import { useRowSelection } from '../../components/useRowSelection.ts';
import { OwnerFilterInput } from '../../components/OwnerFilterInput.tsx';
import { ownerColumn } from '../../components/usernameColumn.tsx';

const STATUS_FILTERS = [
  { value: '', label: 'Any status' },
  { value: 'authoritative', label: 'Authoritative' },
  { value: 'deprecated', label: 'Deprecated' },
];
const ACCESS_FILTERS = [
  { value: '', label: 'Any sharing' },
  ...(['private', 'shared', 'org', 'public'] as const).map((value) => ({ value, label: ITEM_ACCESS_LABELS[value] })),
];

export default function ContentPage() {
  const user = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseContentList(searchParams);
  const update = (patch: Partial<ContentListState>, replace = false) => setSearchParams(contentListToParams({ ...list, ...patch }), { replace });
  const orgView = viewOrgContentPermission(user);
  const effective: ContentListState = orgView.allowed ? list : { ...list, scope: 'mine' };

  const items = useQuery(itemsQuery(effective, user));
  const folders = useQuery({ ...foldersQuery(user.username), enabled: effective.scope === 'mine' });
  const groups = useQuery(groupChoicesQuery(user.username));
  const [adding, setAdding] = useState(false);
  const { selected, setSelected, selection } = useRowSelection<Item>((item) => `Select ${item.title || item.id}`);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const columns: DataTableColumn<Item>[] = [
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

  const filtered = !!(list.q || list.type || list.status || list.access || list.group || list.folder || list.owner);
  const folderOptions = [{ value: '', label: 'All folders' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.title }))];
  const groupOptions = [{ value: '', label: 'Any group' }, ...(groups.data?.results ?? []).map((g) => ({ value: g.id, label: g.title }))];

  return (
    <>
      <PageHeader
        title="Content"
        description="Items: files, services, maps and apps — who owns them, who can see them, and what they are related to."
        actions={
          <GuardedButton permission={addItemPermission(user)} leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add item
          </GuardedButton>
        }
      />
      <ResumeCopiesSlot />
      <Paper withBorder p="sm" mb="md" radius="md">
        <FilterBar
          label="Filter content"
          active={[list.owner, list.folder, list.type, list.status, list.access, list.group].filter(Boolean).length}
          leading={
            <>
              <Tooltip label={orgView.allowed ? '' : orgView.reason} disabled={orgView.allowed} multiline w={280}>
                <SegmentedControl
                  aria-label="Whose content"
                  value={effective.scope}
                  onChange={(v) => update({ scope: v, start: 1, folder: '', owner: '' })}
                  data={[
                    { value: 'mine', label: 'My content' },
                    { value: 'org', label: 'Organization', disabled: !orgView.allowed },
                  ]}
                />
              </Tooltip>
              <SearchBox
                value={list.q}
                onSearch={(q) => update({ q, start: 1 }, true)}
                label="Search content"
                placeholder="Title, summary, description or tag"
                inputRef={searchRef}
              />
            </>
          }
        >
          {effective.scope === 'org' ? (
            <OwnerFilterInput owner={list.owner} onApply={(owner) => update({ owner, start: 1 })} w={150} />
          ) : (
            <Select
              label="Folder"
              data={folderOptions}
              value={list.folder}
              onChange={(v) => update({ folder: v ?? '', start: 1 })}
              allowDeselect={false}
              w={170}
            />
          )}
          <Autocomplete
            label="Type"
            placeholder="Any type"
            data={[...COMMON_ITEM_TYPES]}
            defaultValue={list.type}
            key={`type-${list.type}`}
            onOptionSubmit={(v) => update({ type: v, start: 1 })}
            onBlur={(e) => e.currentTarget.value.trim() !== list.type && update({ type: e.currentTarget.value.trim(), start: 1 })}
            w={190}
          />
          <Select
            label="Status"
            data={STATUS_FILTERS}
            value={list.status === 'org_authoritative' || list.status === 'public_authoritative' ? 'authoritative' : list.status}
            onChange={(v) => update({ status: (v ?? '') as ContentListState['status'], start: 1 })}
            allowDeselect={false}
            w={150}
          />
          <Select
            label="Shared with"
            data={ACCESS_FILTERS}
            value={list.access}
            onChange={(v) => update({ access: (v ?? '') as ContentListState['access'], start: 1 })}
            allowDeselect={false}
            w={160}
          />
          <Select
            label="Group"
            data={groupOptions}
            value={list.group}
            onChange={(v) => update({ group: v ?? '', start: 1 })}
            allowDeselect={false}
            searchable
            w={180}
          />
        </FilterBar>
      </Paper>
      <ContentSelectionBar
        selected={[...selected.values()]}
        onClear={() => setSelected(new Map())}
        onDeleted={() => {
          setSelected(new Map());
          // Back to the list; when it is now empty (its "select all" disabled), to its search.
          const selectAll = selectAllRef.current;
          (selectAll && !selectAll.disabled ? selectAll : searchRef.current)?.focus();
        }}
      />
      <DataTable
        label="Content"
        itemName="items"
        columns={columns}
        rows={items.data?.results}
        rowKey={(item) => item.id}
        loading={items.isPending}
        fetching={items.isPlaceholderData || (items.isFetching && !items.isPending)}
        error={items.isError ? items.error : undefined}
        onRetry={() => items.refetch()}
        sort={list.sortField ? { field: list.sortField, order: list.sortOrder } : undefined}
        onSortChange={(s) => update({ sortField: s.field as ContentListState['sortField'], sortOrder: s.order, start: 1 })}
        paging={
          items.data
            ? {
                start: items.data.start || list.start,
                num: list.num,
                total: items.data.total,
                estimated: items.data.totalEstimated,
                nextStart: items.data.nextStart,
              }
            : undefined
        }
        onPageChange={(start) => update({ start })}
        onPageSizeChange={(num) => update({ num, start: 1 })}
        selectAllRef={selectAllRef}
        selection={selection}
        empty={
          filtered ? (
            <EmptyPanel title="No items match" description="Try other words, or clear the filters." icon={<IconSearch size={28} />} />
          ) : (
            <EmptyPanel title="No items yet" description="Add a file, a URL, text or a download to get started." />
          )
        }
      />
      <AddItemModal opened={adding} onClose={() => setAdding(false)} />
    </>
  );
}
