/**
 * A webhook's delivery log (notificationStatus): every attempt, newest first, with a status filter
 * over the page shown; an attempt opens the request (headers and body) and the receiver's answer.
 * A finished delivery can be sent again (same webhook-id).
 */
import { Alert, Badge, Code, Drawer, Group, ScrollArea, SegmentedControl, SimpleGrid, Stack, Text, Title, UnstyledButton, useMatches } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, type WebhookAttemptRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useRedeliver } from './mutations.ts';
import { webhookAction } from './permissions.ts';
import { webhookAttemptsQuery } from '../../api/queries/webhooks.ts';
import { LabeledValue } from '../../components/LabeledValue.tsx';

type Filter = '' | 'success' | 'failed' | 'retrying';

/**
 * Whether an attempt succeeded. The attempt details (success, status, duration, state, headers) are
 * the local portal's extras; elsewhere an entry has only the public id, isInvoked, time, responseText
 * and payload, so "answered" is all that can be said.
 */
const succeeded = (a: WebhookAttemptRecord): boolean | undefined => a.success ?? (a.isInvoked === false ? false : undefined);
const orDash = (v: unknown, unit = '') => (v === undefined || v === null ? '—' : `${String(v)}${unit}`);

const matches = (a: WebhookAttemptRecord, f: Filter) =>
  !f || (f === 'success' ? succeeded(a) === true : f === 'failed' ? succeeded(a) === false : a.deliveryState === 'pending' || a.deliveryState === 'running');

/** Pretty JSON when the text is JSON. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function AttemptBadge({ a }: { a: WebhookAttemptRecord }) {
  if (succeeded(a) === undefined) {
    return (
      <Badge color="gray" variant="light">
        {a.isInvoked ? 'Answered' : 'Unknown'}
      </Badge>
    );
  }
  return a.success ? (
    <Badge color="green" variant="light">
      {a.responseStatus}
    </Badge>
  ) : (
    <Badge color="red" variant="light">
      {a.responseStatus ?? 'No answer'}
    </Badge>
  );
}

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
    { id: 'delivery', header: 'Delivery', render: (a) => <Text size="sm">{orDash(a.deliveryState)}</Text> },
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

function AttemptDetail({ orgId, webhookId, attempt: a }: { orgId: string; webhookId: string; attempt: WebhookAttemptRecord }) {
  const user = useCurrentUser();
  const redeliver = useRedeliver(orgId, webhookId);
  const caps = usePortalCapabilities();
  const finished = a.deliveryState === 'delivered' || a.deliveryState === 'failed';
  const permission = localOnly(
    caps,
    'redelivery',
    finished
      ? webhookAction(user, 'redeliverWebhookNotification', 'redeliver')
      : { allowed: false as const, missing: '', reason: `This delivery is still ${a.deliveryState}.` },
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={3}>
        <LabeledValue label="Sent">{formatDateTime(a.invokedTimestamp)}</LabeledValue>
        <LabeledValue label="Answer">
          <AttemptBadge a={a} />
        </LabeledValue>
        <LabeledValue label="Took">{orDash(a.durationMs, ' ms')}</LabeledValue>
        <LabeledValue label="Attempt">{orDash(a.attempt)}</LabeledValue>
        <LabeledValue label="Delivery">{orDash(a.deliveryState)}</LabeledValue>
        <LabeledValue label="Delivery id">
          <Code>{a.deliveryId ?? a.id}</Code>
        </LabeledValue>
      </SimpleGrid>
      {a.error ? (
        <Alert color="red" variant="light" title="Why it failed">
          {a.error}
        </Alert>
      ) : null}
      <Group>
        <GuardedButton
          permission={permission}
          loading={redeliver.isPending}
          onClick={() =>
            redeliver.mutate(a.deliveryId, {
              onSuccess: () =>
                notifications.show({ color: 'green', title: 'Redelivery queued', message: 'The delivery is sent again with the same webhook-id.' }),
              onError: (err) => notifications.show({ color: 'red', title: 'Not redelivered', message: describeError(err) }),
            })
          }
        >
          Redeliver
        </GuardedButton>
      </Group>
      {a.requestHeaders ? (
        <Section
          title="Request headers"
          text={Object.entries(a.requestHeaders)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}
        />
      ) : null}
      <Section title="Request body" text={pretty(a.payload)} />
      <Section title="Response body (first 2 KB)" text={(a.responseBody ?? a.responseText) ? pretty(a.responseBody ?? a.responseText) : '(empty)'} />
    </Stack>
  );
}

function Section({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <Title order={3} size="sm" mb={4}>
        {title}
      </Title>
      {/* The scrolling viewport takes focus so a long body can be scrolled with the keyboard. */}
      <ScrollArea.Autosize mah={320} viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': title }}>
        <Code block>{text}</Code>
      </ScrollArea.Autosize>
    </div>
  );
}
