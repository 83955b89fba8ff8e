/**
 * Activity: the organization's history (portals/<orgId>/history) as a timeline in words, with
 * filters, "Load more" paging through nextKey, the before/after of each change, and the CSV of the
 * filtered view, and undo of the selected changes (components/UndoDialog.tsx). A portal without the history operation (ArcGIS Enterprise) gets a notice instead.
 */
import { Box, Button, Select, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fetchHistoryCsv, isHistoryUnavailable } from '../../api/index.ts';
import { historyPagesQuery } from '../../api/queries/history.ts';
import { HISTORY_ACTIONS, HISTORY_ID_TYPES, ID_TYPE_LABELS } from '../../../shared/contract/history.ts';
import { FilterBar } from '../../components/FilterBar.tsx';
import { HistoryList } from '../../components/HistoryList.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { useDownload } from '../../lib/download.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { filterSchema, NO_FILTERS, queryOf, type Filters } from './filters.ts';

const PAGE = 50;
/** Filter fields may shrink to the window (320 px): a date input's own minimum width would push the page sideways. */
const FIT = { maw: '100%', miw: 0 } as const;

export default function ActivityPage() {
  const user = useCurrentUser();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [errors, setErrors] = useState<Partial<Record<keyof Filters, string>>>({});
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const query = queryOf(applied);
  const history = useInfiniteQuery(historyPagesQuery(user.orgId, query, PAGE));
  const download = useDownload();

  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const parsed = filterSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path[0], i.message])));
      return;
    }
    setErrors({});
    setApplied(parsed.data);
  };
  const field = (k: keyof Filters) => ({
    ...FIT,
    value: draft[k],
    error: errors[k],
    onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [k]: e.currentTarget.value }),
  });

  if (history.error && isHistoryUnavailable(history.error)) {
    return (
      <>
        <PageHeader title="Activity" />
        <EmptyPanel
          title="Activity is not available on this portal"
          description="This portal has no organization history operation (ArcGIS Enterprise). The rest of the console works as usual."
        />
      </>
    );
  }

  const rows = history.data?.pages.flatMap((p) => p.items);

  return (
    <>
      <PageHeader
        title="Activity"
        description="Who changed what in the organization, and when."
        actions={
          <Button
            variant="default"
            loading={download.pending === 'csv'}
            onClick={() => download.start('csv', () => fetchHistoryCsv(user.orgId, query), 'history.csv')}
          >
            Export CSV
          </Button>
        }
      />
      <form onSubmit={submit} aria-label="Filter activity">
        <Box mb="md">
          <FilterBar label="Activity filters" active={Object.values(applied).filter(Boolean).length}>
            <TextInput label="Actor (username)" {...field('actor')} />
            <Select
              {...FIT}
              label="Action"
              data={[{ value: '', label: 'Any' }, ...HISTORY_ACTIONS.map((a) => ({ value: a, label: a }))]}
              value={draft.action}
              onChange={(v) => setDraft({ ...draft, action: v ?? '' })}
              allowDeselect={false}
            />
            <Select
              {...FIT}
              label="Target type"
              data={[{ value: '', label: 'Any' }, ...HISTORY_ID_TYPES.map((t) => ({ value: t, label: ID_TYPE_LABELS[t] ?? t }))]}
              value={draft.type}
              onChange={(v) => setDraft({ ...draft, type: v ?? '' })}
              allowDeselect={false}
            />
            <TextInput label="Target id or username" {...field('id')} />
            <TextInput type="date" label="From" {...field('from')} />
            <TextInput type="date" label="To" {...field('to')} />
            <Button type="submit">Apply filters</Button>
          </FilterBar>
        </Box>
      </form>
      <HistoryList
        label="Organization activity"
        rows={rows}
        loading={history.isPending}
        fetching={history.isFetching}
        error={history.error}
        onRetry={() => void history.refetch()}
        empty={<EmptyPanel title="No events" description="Nothing matches these filters." />}
        hasMore={history.hasNextPage}
        loadingMore={history.isFetchingNextPage}
        onLoadMore={() => void history.fetchNextPage()}
      />
    </>
  );
}
