/** Webhooks: the organization's webhooks with how each is doing, service webhooks, and delivery settings. */
import { Anchor, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { WebhookListEntry } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconPlus } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { webhookAction } from './permissions.ts';
import { webhooksQuery } from '../../api/queries/webhooks.ts';
import { ServiceWebhooksPanel } from './ServiceWebhooksPanel.tsx';
import { eventLabel } from './eventWords.ts';
import { SettingsPanel } from './SettingsPanel.tsx';
import { StateBadge } from './StateBadge.tsx';
import { WebhookFormModal } from './WebhookFormModal.tsx';

const TABS = ['organization', 'services', 'settings'] as const;
type Tab = (typeof TABS)[number];

export function eventsSummary(events: string[]): string {
  if (events.includes('/')) return 'Every event';
  const words = events.map(eventLabel);
  return words.length <= 2 ? words.join(', ') : `${words.slice(0, 2).join(', ')} and ${words.length - 2} more`;
}

export default function WebhooksPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(searchParams.get('tab') ?? '') ? (searchParams.get('tab') as Tab) : 'organization';
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Send the organization's events to other systems as they happen."
        actions={
          <GuardedButton
            permission={webhookAction(user, 'createWebhook', 'create webhooks')}
            leftSection={<IconPlus size={16} />}
            onClick={() => setCreating(true)}
          >
            Create webhook
          </GuardedButton>
        }
      />
      <Tabs value={tab} onChange={(v) => setSearchParams(v && v !== 'organization' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="organization">Organization webhooks</Tabs.Tab>
          <Tabs.Tab value="services">Service webhooks</Tabs.Tab>
          <Tabs.Tab value="settings">Delivery settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="organization">
          <OrganizationWebhooks orgId={user.orgId} />
        </Tabs.Panel>
        <Tabs.Panel value="services">
          <ServiceWebhooksPanel orgId={user.orgId} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <SettingsPanel orgId={user.orgId} />
        </Tabs.Panel>
      </Tabs>
      <WebhookFormModal opened={creating} onClose={() => setCreating(false)} orgId={user.orgId} onCreated={(id) => navigate(`/webhooks/${id}`)} />
    </>
  );
}

function OrganizationWebhooks({ orgId }: { orgId: string }) {
  const list = useQuery(webhooksQuery(orgId));
  const columns: DataTableColumn<WebhookListEntry>[] = [
    {
      id: 'name',
      header: 'Webhook',
      stackFirst: true,
      render: (w) => (
        <Stack gap={2}>
          <Anchor component={Link} to={`/webhooks/${w.id}`} fw={600} size="sm">
            {w.name}
          </Anchor>
          <Text size="xs" c="dimmed" ff="monospace" lineClamp={1}>
            {w.payloadUrl}
          </Text>
        </Stack>
      ),
    },
    { id: 'events', header: 'Events', render: (w) => <Text size="sm">{eventsSummary(w.events)}</Text> },
    {
      id: 'state',
      header: 'State',
      stackFirst: true,
      render: (w) => (
        <Stack gap={2}>
          <StateBadge webhook={w} />
          {!w.isActive && w.deactivationReason ? (
            <Text size="xs" c="dimmed" maw={260}>
              {w.deactivationReason}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'last',
      header: 'Last delivery',
      render: (w) =>
        w.lastDelivery ? (
          <Text size="sm" c={w.lastDelivery.success ? undefined : 'red'} style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(w.lastDelivery.at)} · {w.lastDelivery.status ?? 'no answer'}
          </Text>
        ) : (
          // null: nothing sent yet; absent: the portal does not report it (a local extra).
          <Text size="sm" c="dimmed">
            {w.lastDelivery === null ? 'None yet' : 'Not reported'}
          </Text>
        ),
    },
    {
      id: 'failures',
      header: 'Recent failures',
      align: 'right',
      render: (w) => {
        const limit = Number(w.config.deactivationPolicy?.numberOfFailures ?? 5);
        if (w.recentFailures === undefined) {
          return (
            <Text size="sm" c="dimmed" title="This portal does not report failures against the deactivation policy">
              — / {limit}
            </Text>
          );
        }
        return (
          <Text
            size="sm"
            c={(w.recentFailures ?? 0) > 0 ? 'red' : undefined}
            title={`Failed deliveries counted by the deactivation policy (turns off at ${limit})`}
          >
            {w.recentFailures ?? 0} / {limit}
          </Text>
        );
      },
    },
  ];
  return (
    <DataTable
      label="Organization webhooks"
      itemName="webhooks"
      columns={columns}
      rows={list.data?.webhooks}
      rowKey={(w) => w.id}
      loading={list.isPending}
      error={list.isError ? list.error : undefined}
      onRetry={() => list.refetch()}
      empty={<EmptyPanel title="No webhooks yet" description="Create one to send item, group, user and role events to a receiver." />}
    />
  );
}
