/**
 * The organization's dependencies: items nothing uses (clean-up candidates, oldest change first)
 * and items many others use (where a change breaks the most), filtered by owner, type and age,
 * paged, each row leading to the item's page. The list lives in the address, like the other lists.
 */
import { Anchor, Autocomplete, Group, Paper, Select, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { DependencySummaryEntry, DependencyView } from '../../../shared/contract/dependencies.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { ContentStatusBadge, ItemAccessBadge } from '../../components/ItemBadges.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { FilterBar } from '../../components/FilterBar.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatCount, formatDate } from '../../lib/format.ts';
import { GraphStatus } from './GraphStatus.tsx';
import { useDependencySummary } from './queries.ts';
import { AGE_CHOICES, modifiedBeforeFor, parseDependencyList, dependencyListToParams, type DependencyListState } from './list.ts';
import { OwnerFilterInput } from '../../components/OwnerFilterInput.tsx';

/** Types whose items use or are used by others, offered in the Type filter (any other may be typed). */
const DEPENDENCY_ITEM_TYPES = [
  'Feature Service',
  'Map Service',
  'Vector Tile Service',
  'Image Service',
  'Scene Service',
  'Web Map',
  'Web Scene',
  'Web Mapping Application',
  'Dashboard',
  'StoryMap',
  'Web Experience',
  'Group Layer',
];

const VIEW_LABELS: Record<DependencyView, string> = { unused: 'Not used by anything', usedByMany: 'Used by many' };

export default function DependenciesPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseDependencyList(searchParams);
  const update = (patch: Partial<DependencyListState>, replace = false) => setSearchParams(dependencyListToParams({ ...list, ...patch }), { replace });
  // From when the page opened, rounded to the hour: the same choice asks the same question (one cache entry).
  const [openedAt] = useState(() => Date.now());
  const modifiedBefore = modifiedBeforeFor(list.age, openedAt);
  const summary = useDependencySummary({
    view: list.view,
    owners: list.owner ? [list.owner] : undefined,
    types: list.type ? [list.type] : undefined,
    modifiedBefore: list.view === 'unused' ? modifiedBefore : undefined,
    start: list.start,
    num: list.num,
  });
  const filtered = !!(list.owner || list.type || (list.view === 'unused' && list.age));

  return (
    <>
      <PageHeader
        title="Dependencies"
        description="Which items nothing uses (candidates for clean-up) and which items many others use (where a change breaks the most), among the items you can see."
      />
      <Stack gap="md">
        <GraphStatus info={summary.data?.graph} />
        <Tabs value={list.view} onChange={(v) => v && update({ view: v as DependencyView, start: 1 })} keepMounted={false}>
          <Tabs.List>
            {(Object.keys(VIEW_LABELS) as DependencyView[]).map((v) => (
              <Tabs.Tab key={v} value={v}>
                {VIEW_LABELS[v]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {(Object.keys(VIEW_LABELS) as DependencyView[]).map((v) => (
            <Tabs.Panel key={v} value={v} pt="md">
              <Stack gap="md">
                <Text size="sm" c="dimmed">
                  {v === 'unused'
                    ? 'Items no map, app or other item uses, the longest unchanged first. Check an item before deleting it: something outside this portal may still use it.'
                    : 'Items used by two or more others, the most used first: a change to one of these reaches every item that uses it.'}
                </Text>
                <Paper withBorder p="sm" radius="md">
                  <FilterBar label="Filter dependencies" active={[list.owner, list.type, v === 'unused' ? list.age : ''].filter(Boolean).length}>
                    <OwnerFilterInput owner={list.owner} onApply={(owner) => update({ owner, start: 1 })} w={170} />
                    <Autocomplete
                      label="Type"
                      placeholder="Any type"
                      data={DEPENDENCY_ITEM_TYPES}
                      defaultValue={list.type}
                      key={`type-${list.type}`}
                      onOptionSubmit={(t) => update({ type: t, start: 1 })}
                      onBlur={(e) => e.currentTarget.value.trim() !== list.type && update({ type: e.currentTarget.value.trim(), start: 1 })}
                      onKeyDown={(e) => e.key === 'Enter' && update({ type: e.currentTarget.value.trim(), start: 1 })}
                      w={210}
                    />
                    {v === 'unused' ? (
                      <Select
                        label="Not changed for"
                        data={AGE_CHOICES.map((a) => ({ value: a.value, label: a.label }))}
                        value={list.age}
                        onChange={(age) => update({ age: age ?? '', start: 1 })}
                        allowDeselect={false}
                        w={170}
                      />
                    ) : null}
                  </FilterBar>
                </Paper>
                <DataTable<DependencySummaryEntry>
                  label={VIEW_LABELS[v]}
                  itemName="items"
                  columns={columnsFor(v)}
                  rows={summary.data?.results}
                  rowKey={(e) => e.id}
                  loading={summary.isPending}
                  fetching={summary.isFetching && !summary.isPending}
                  error={summary.error}
                  onRetry={() => void summary.refetch()}
                  paging={summary.data ? { start: list.start, num: list.num, total: summary.data.total, nextStart: summary.data.nextStart } : undefined}
                  onPageChange={(start) => update({ start })}
                  onPageSizeChange={(num) => update({ num, start: 1 })}
                  empty={
                    <EmptyPanel
                      title={
                        filtered
                          ? 'No item fits these filters'
                          : v === 'unused'
                            ? 'Every item you can see is used by another'
                            : 'No item is used by two or more others'
                      }
                      description={filtered ? 'Clear a filter to see more.' : undefined}
                    />
                  }
                />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </>
  );
}

function columnsFor(view: DependencyView): DataTableColumn<DependencySummaryEntry>[] {
  const title: DataTableColumn<DependencySummaryEntry> = {
    id: 'title',
    header: 'Item',
    stackFirst: true,
    render: (e) => (
      <Group gap={8} wrap="nowrap" align="flex-start">
        <Text component="span" c="dimmed" style={{ display: 'flex', paddingTop: 3, flexShrink: 0 }}>
          <ItemTypeIcon type={e.type} />
        </Text>
        <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/content/items/${e.id}`} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {e.title || e.id}
          </Anchor>
          <ContentStatusBadge status={e.contentStatus} />
          <ReplacedByNote item={e} size="xs" />
        </Group>
      </Group>
    ),
  };
  const count = (id: 'dependents' | 'dependencies', header: string): DataTableColumn<DependencySummaryEntry> => ({
    id,
    header,
    align: 'right',
    render: (e) => <Text size="sm">{formatCount(e[id])}</Text>,
  });
  return [
    title,
    { id: 'type', header: 'Type', render: (e) => <Text size="sm">{e.type}</Text> },
    {
      id: 'owner',
      header: 'Owner',
      render: (e) => (
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {e.owner}
        </Text>
      ),
    },
    { id: 'access', header: 'Shared with', render: (e) => <ItemAccessBadge access={e.access} /> },
    ...(view === 'usedByMany' ? [count('dependents', 'Used by')] : []),
    count('dependencies', 'Uses'),
    {
      id: 'modified',
      header: 'Changed',
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(e.modified)}
        </Text>
      ),
    },
  ];
}
