/**
 * The recycle bin: items deleted in the last 14 days, with their owner, when and how long is left;
 * Restore (back to their folder, with data, sharing and relationships) or Delete permanently, for
 * one or a selection. A portal without a recycle bin (ArcGIS Enterprise) says deletes are final there.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, hasRecycleBin, runBulk, type RecycledItem } from '../../api/index.ts';
import { portalQuery } from '../../api/queries/portal.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { useDeletePermanently, useRestoreItem } from './mutations.ts';
import { PermanentDeleteDialog } from './PermanentDeleteDialog.tsx';
import { daysLeft, recycleBinQuery } from './queries.ts';
import { useRowSelection } from '../../components/useRowSelection.ts';

const COLUMNS: DataTableColumn<RecycledItem>[] = [
  { id: 'title', header: 'Title', stackFirst: true, render: (i) => <Text fw={500}>{i.title || i.id}</Text> },
  { id: 'type', header: 'Type', render: (i) => i.type },
  { id: 'owner', header: 'Owner', render: (i) => i.owner },
  { id: 'deleted', header: 'Deleted', render: (i) => (i.deleted ? `${formatDateTime(i.deleted)}${i.deletedBy ? ` by ${i.deletedBy}` : ''}` : '—') },
  {
    id: 'left',
    header: 'Days left',
    render: (i) => {
      if (!i.expires) return '—';
      const days = daysLeft(i.expires, Date.now());
      return days === 0 ? 'Being purged' : `${days} day${days === 1 ? '' : 's'}`;
    },
  },
  { id: 'size', header: 'Size', align: 'right', render: (i) => formatBytes(i.size) },
];

export default function RecycleBinPage() {
  const portal = useQuery(portalQuery());
  if (portal.isPending) return <LoadingState />;
  if (portal.error) return <ErrorState error={portal.error} onRetry={() => void portal.refetch()} />;
  return (
    <Stack>
      <PageHeader
        title="Recycle bin"
        description="Deleted items wait here for 14 days: restore them with their data, sharing and relationships, or delete them for good."
      />
      {hasRecycleBin(portal.data) ? (
        <RecycledList />
      ) : (
        <EmptyPanel
          title="This portal has no recycle bin"
          description="Deleting an item on this portal (ArcGIS Enterprise, or an organization that turned the bin off) is final: it cannot be restored."
        />
      )}
    </Stack>
  );
}

function RecycledList() {
  const [start, setStart] = useState(1);
  const [num, setNum] = useState(25);
  const { selected, setSelected, selection } = useRowSelection<RecycledItem>((i) => `Select ${i.title || i.id}`);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const page = useQuery(recycleBinQuery(start, num));
  const restore = useRestoreItem();
  const purge = useDeletePermanently();
  const chosen = [...selected.values()];

  const run = async (verb: 'Restored' | 'Deleted permanently', work: (i: RecycledItem) => Promise<unknown>) => {
    const outcomes = await runBulk(chosen, work, { concurrency: 3 });
    const failed = outcomes.filter((o) => !o.ok);
    setSelected(new Map(failed.map((o) => [o.item.id, o.item])));
    const done = outcomes.length - failed.length;
    setOutcome({
      ok: !failed.length,
      text:
        `${verb} ${done} item${done === 1 ? '' : 's'}.` +
        (failed.length ? ` ${failed.length} failed: ${failed.map((o) => `${o.item.title}: ${describeError(o.error)}`).join('; ')}` : ''),
    });
  };

  return (
    <Stack>
      <Group gap="sm" wrap="wrap">
        <Button disabled={!chosen.length} loading={restore.isPending} onClick={() => void run('Restored', (i) => restore.mutateAsync(i))}>
          Restore{chosen.length ? ` (${chosen.length})` : ''}
        </Button>
        <Button color="red" variant="light" disabled={!chosen.length} loading={purge.isPending} onClick={() => setConfirming(true)}>
          Delete permanently{chosen.length ? ` (${chosen.length})` : ''}
        </Button>
        {!chosen.length ? (
          <Text size="sm" c="dimmed">
            Select items to restore or delete them.
          </Text>
        ) : null}
      </Group>
      <div role="status" aria-live="polite">
        {outcome ? (
          <Alert color={outcome.ok ? 'green' : 'orange'} variant="light" withCloseButton closeButtonLabel="Dismiss" onClose={() => setOutcome(null)}>
            {outcome.text}
          </Alert>
        ) : null}
      </div>
      <DataTable
        label="Recycled items"
        itemName="recycled items"
        columns={COLUMNS}
        rows={page.data?.items}
        rowKey={(i) => i.id}
        loading={page.isPending}
        fetching={page.isFetching}
        error={page.error}
        onRetry={() => void page.refetch()}
        paging={page.data ? { start, num, total: page.data.total, nextStart: page.data.nextStart } : undefined}
        onPageChange={setStart}
        onPageSizeChange={(n) => {
          setNum(n);
          setStart(1);
        }}
        empty={<EmptyPanel title="The recycle bin is empty" description="Items deleted from Content appear here for 14 days." />}
        selection={selection}
      />
      <PermanentDeleteDialog
        items={confirming ? chosen : []}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run('Deleted permanently', (i) => purge.mutateAsync(i));
        }}
      />
    </Stack>
  );
}
