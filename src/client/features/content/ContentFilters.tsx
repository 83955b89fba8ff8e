/**
 * The content list's filters: whose content, the search, and the owner (organization) or folder
 * (mine), type, status, sharing and group — all kept in the address.
 */
import { Autocomplete, Paper, SegmentedControl, Select, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { FilterBar } from '../../components/FilterBar.tsx';
import { OwnerFilterInput } from '../../components/OwnerFilterInput.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { groupChoicesQuery } from '../../api/queries/groups.ts';
import { foldersQuery } from '../../api/queries/items.ts';
import { ITEM_ACCESS_LABELS } from '../../lib/itemAccess.ts';
import type { Permission } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { COMMON_ITEM_TYPES, type ContentListState } from './schemas.ts';

const STATUS_FILTERS = [
  { value: '', label: 'Any status' },
  { value: 'authoritative', label: 'Authoritative' },
  { value: 'deprecated', label: 'Deprecated' },
];
const ACCESS_FILTERS = [
  { value: '', label: 'Any sharing' },
  ...(['private', 'shared', 'org', 'public'] as const).map((value) => ({ value, label: ITEM_ACCESS_LABELS[value] })),
];

export function ContentFilters({
  list,
  effective,
  update,
  orgView,
  searchRef,
}: {
  list: ContentListState;
  effective: ContentListState;
  update: (patch: Partial<ContentListState>, replace?: boolean) => void;
  orgView: Permission;
  searchRef: RefObject<HTMLInputElement | null>;
}) {
  const user = useCurrentUser();
  const folders = useQuery({ ...foldersQuery(user.username), enabled: effective.scope === 'mine' });
  const groups = useQuery(groupChoicesQuery(user.username));
  const folderOptions = [{ value: '', label: 'All folders' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.title }))];
  const groupOptions = [{ value: '', label: 'Any group' }, ...(groups.data?.results ?? []).map((g) => ({ value: g.id, label: g.title }))];

  return (
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
  );
}
