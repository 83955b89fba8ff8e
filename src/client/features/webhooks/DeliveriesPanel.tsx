/**
 * A webhook's delivery log (notificationStatus): every attempt, newest first, with a status filter
 * over the page shown; an attempt opens the request (headers and body) and the receiver's answer.
 * A finished delivery can be sent again (same webhook-id).
 */
import { Drawer, SegmentedControl, Stack, Text, UnstyledButton, useMatches } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookAttemptRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { webhookAttemptsQuery } from '../../api/queries/webhooks.ts';
import { AttemptBadge, AttemptDetail, DeliveryState, orDash, succeeded } from './AttemptDetail.tsx';

type Filter = '' | 'success' | 'failed' | 'retrying';

const matches = (a: WebhookAttemptRecord, f: Filter) =>
  !f || (f === 'success' ? succeeded(a) === true : f === 'failed' ? succeeded(a) === false : a.deliveryState === 'pending' || a.deliveryState === 'running');

export function DeliveriesPanel({ orgId, webhookId }: { orgId: string; webhookId: string }) {
  const [start, setStart] = useState(1);
  const [num, setNum] = useState(25);
  const orientation = useMatches<'horizontal' | 'vertical'>({ base: 'vertical', xs: 'horizontal' });
  const [filter, setFilter] = useState<Filter>('');
  const [open, setOpen] = useState<WebhookAttemptRecord | null>(null);
  const attempts = useQuery(webhookAttemptsQuery(orgId, webhookId, start, num));
  const rows = attempts.data?.WebhookStatus.filter((a) => matches(a, filter));

  const columns: DataTableColumn<WebhookAttemptRecord>[] = [
    {
      id: 'time',
      header: 'Time',
      render: (a) => (
        <UnstyledButton
          onClick={() => setOpen(a)}
          aria-label={`Attempt ${a.attempt ?? ''} of ${a.event ?? 'an event'} at ${formatDateTime(a.invokedTimestamp)}`.replace('Attempt  of', 'Attempt of')}
        >
          <Text size="sm" c="blue" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(a.invokedTimestamp)}
          </Text>
        </UnstyledButton>
      ),
    },
    {
      id: 'event',
      header: 'Event',
      render: (a) => (
        <Text size="sm" ff="monospace">
          {orDash(a.event)}
        </Text>
      ),
    },
    { id: 'attempt', header: 'Attempt', align: 'right', render: (a) => <Text size="sm">{orDash(a.attempt)}</Text> },
    { id: 'status', header: 'Answer', render: (a) => <AttemptBadge a={a} /> },
    { id: 'duration', header: 'Took', align: 'right', render: (a) => <Text size="sm">{orDash(a.durationMs, ' ms')}</Text> },
    { id: 'delivery', header: 'Delivery', render: (a) => <DeliveryState a={a} /> },
  ];

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Show attempts"
        // Four choices side by side need about 350 px: stacked below the xs breakpoint (320 px, WCAG 1.4.10).
        orientation={orientation}
        value={filter}
        onChange={(v) => setFilter(v)}
        data={[
          { value: '', label: 'All' },
          { value: 'success', label: 'Succeeded' },
          { value: 'failed', label: 'Failed' },
          { value: 'retrying', label: 'Retry pending' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <DataTable
        label="Delivery attempts"
        itemName="attempts"
        columns={columns}
        rows={rows}
        rowKey={(a) => `${a.deliveryId ?? a.id}-${a.attempt}-${a.invokedTimestamp}`}
        loading={attempts.isPending}
        fetching={attempts.isPlaceholderData}
        error={attempts.isError ? attempts.error : undefined}
        onRetry={() => attempts.refetch()}
        paging={attempts.data ? { start, num, total: attempts.data.total } : undefined}
        onPageChange={setStart}
        onPageSizeChange={(n) => {
          setNum(n);
          setStart(1);
        }}
        empty={
          <EmptyPanel
            title={filter ? 'No attempts match' : 'No deliveries yet'}
            description={filter ? 'Filters apply to the page shown.' : 'Deliveries appear here as events happen, or send a test event.'}
          />
        }
      />
      <Drawer opened={!!open} onClose={() => setOpen(null)} position="right" size="xl" title={open ? `Delivery of ${open.event ?? 'an event'}` : ''}>
        {open ? <AttemptDetail orgId={orgId} webhookId={webhookId} attempt={open} /> : null}
      </Drawer>
    </Stack>
  );
}
