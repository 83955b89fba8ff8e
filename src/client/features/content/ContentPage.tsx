/**
 * Content: the member's items or, for administrators, the organization's — filtered by owner,
 * type, folder, status and sharing, sorted, paged, with a multi-selection for bulk actions.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Item } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ResumeCopiesSlot } from '../../components/CopySlot.tsx';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { AddItemModal } from './AddItemModal.tsx';
import { ContentFilters } from './ContentFilters.tsx';
import { contentColumns } from './contentColumns.tsx';
import { ContentSelectionBar } from './ContentSelectionBar.tsx';
import { addItemPermission, viewOrgContentPermission } from './permissions.ts';
import { itemsQuery } from './queries.ts';
import { contentListToParams, parseContentList, type ContentListState } from './schemas.ts';
import { useRowSelection } from '../../components/useRowSelection.ts';

export default function ContentPage() {
  const user = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseContentList(searchParams);
  const update = (patch: Partial<ContentListState>, replace = false) => setSearchParams(contentListToParams({ ...list, ...patch }), { replace });
  const orgView = viewOrgContentPermission(user);
  const effective: ContentListState = orgView.allowed ? list : { ...list, scope: 'mine' };

  const items = useQuery(itemsQuery(effective, user));
  const [adding, setAdding] = useState(false);
  const { selected, setSelected, selection } = useRowSelection<Item>((item) => `Select ${item.title || item.id}`);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const columns = contentColumns();

  const filtered = !!(list.q || list.type || list.status || list.access || list.group || list.folder || list.owner);

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
      <ContentFilters list={list} effective={effective} update={update} orgView={orgView} searchRef={searchRef} />
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
