/**
 * Activity: the organization's history (portals/<orgId>/history) as a timeline in words, with
 * filters, "Load more" paging through nextKey, the before/after of each change, and the CSV of the
 * filtered view. A portal without the history operation (ArcGIS Enterprise) gets a notice instead.
 */
import { Anchor, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { getHistory, historyCsvHref, isHistoryUnavailable, type HistoryEvent } from '../../api/index.ts';
import { HISTORY_ACTIONS, HISTORY_ID_TYPES, ID_TYPE_LABELS } from '../../../shared/contract/history.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { changeRows, describeEvent, detailRows, eventKey } from '../../lib/history/describe.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { filterSchema, NO_FILTERS, queryOf, type Filters } from './filters.ts';

const PAGE = 50;

export default function ActivityPage() {
  const user = useCurrentUser();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [errors, setErrors] = useState<Partial<Record<keyof Filters, string>>>({});
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const query = queryOf(applied);
  const history = useInfiniteQuery({
    queryKey: ['history', user.orgId, query],
    queryFn: ({ pageParam, signal }) => getHistory(user.orgId, { ...query, num: PAGE, start: pageParam }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextKey,
    retry: (count, err) => !isHistoryUnavailable(err) && count < 2,
  });

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
  const columns: DataTableColumn<HistoryEvent>[] = [
    {
      id: 'when',
      header: 'When',
      render: (e) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(e.created)}
        </Text>
      ),
    },
    { id: 'what', header: 'Event', render: (e) => <EventCell event={e} /> },
    { id: 'type', header: 'Target', render: (e) => <Text size="sm">{ID_TYPE_LABELS[e.idType] ?? e.idType}</Text> },
  ];

  return (
    <>
      <PageHeader
        title="Activity"
        description="Who changed what in the organization, and when."
        actions={
          <Button component="a" variant="default" href={historyCsvHref(user.orgId, query)} download="history.csv">
            Export CSV
          </Button>
        }
      />
      <form onSubmit={submit} aria-label="Filter activity">
        <Group align="flex-end" mb="md" wrap="wrap">
          <TextInput label="Actor (username)" {...field('actor')} />
          <Select
            label="Action"
            data={[{ value: '', label: 'Any' }, ...HISTORY_ACTIONS.map((a) => ({ value: a, label: a }))]}
            value={draft.action}
            onChange={(v) => setDraft({ ...draft, action: v ?? '' })}
            allowDeselect={false}
          />
          <Select
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
        </Group>
      </form>
      <Stack>
        <DataTable
          label="Organization activity"
          itemName="events"
          columns={columns}
          rows={rows}
          rowKey={eventKey}
          loading={history.isPending}
          fetching={history.isFetching}
          error={history.error}
          onRetry={() => void history.refetch()}
          empty={<EmptyPanel title="No events" description="Nothing matches these filters." />}
        />
        {history.hasNextPage ? (
          <Button variant="default" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage} style={{ alignSelf: 'center' }}>
            Load more
          </Button>
        ) : null}
      </Stack>
    </>
  );
}

/** The event in words, and its before/after (or other details) on demand. */
function EventCell({ event }: { event: HistoryEvent }) {
  const changes = changeRows(event);
  const details = detailRows(event);
  return (
    <Stack gap={4}>
      <Text size="sm">{describeEvent(event)}</Text>
      {changes.length || details.length ? (
        <details>
          <summary>
            <Anchor component="span" size="xs">
              Details
            </Anchor>
          </summary>
          <Table fz="xs" withTableBorder mt={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((r) => (
                <Table.Tr key={r.field}>
                  <Table.Td>{r.field}</Table.Td>
                  <Table.Td>{r.before}</Table.Td>
                  <Table.Td>{r.after}</Table.Td>
                </Table.Tr>
              ))}
              {details.map((r) => (
                <Table.Tr key={r.field}>
                  <Table.Td>{r.field}</Table.Td>
                  <Table.Td colSpan={2}>{r.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </details>
      ) : null}
    </Stack>
  );
}
