/**
 * Service webhooks of the organization's federated servers (listServiceWebhooks): filter by owner
 * (asked of the portal), service type and state (narrowed here), and a drawer with every field.
 */
import { Badge, Code, Drawer, Group, SegmentedControl, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ServiceWebhookRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { serviceWebhooksQuery } from './queries.ts';

type TypeFilter = '' | 'FeatureServer' | 'GPServer';
type StateFilter = '' | 'active' | 'inactive';

export function ServiceWebhooksPanel({ orgId }: { orgId: string }) {
  const [owner, setOwner] = useState('');
  const [type, setType] = useState<TypeFilter>('');
  const [state, setState] = useState<StateFilter>('');
  const [open, setOpen] = useState<ServiceWebhookRecord | null>(null);
  const list = useQuery(serviceWebhooksQuery(orgId, owner));
  const rows = list.data?.webhooks.filter((w) => (!type || w.serviceType === type) && (!state || w.active === (state === 'active')));

  const columns: DataTableColumn<ServiceWebhookRecord>[] = [
    {
      id: 'name',
      header: 'Webhook',
      stackFirst: true,
      render: (w) => (
        <UnstyledButton onClick={() => setOpen(w)} aria-label={`Show ${w.name}`}>
          <Text size="sm" fw={600} c="blue">
            {w.name}
          </Text>
        </UnstyledButton>
      ),
    },
    {
      id: 'service',
      header: 'Service',
      render: (w) => (
        <Text size="sm" ff="monospace">
          {w.folderName ? `${w.folderName}/` : ''}
          {w.serviceName}.{w.serviceType}
        </Text>
      ),
    },
    { id: 'triggers', header: 'Triggers', render: (w) => <Text size="sm">{w.changeTypes.join(', ')}</Text> },
    {
      id: 'owner',
      header: 'Owner',
      render: (w) => (
        <Text size="sm" ff="monospace">
          {w.owner}
        </Text>
      ),
    },
    {
      id: 'state',
      header: 'State',
      stackFirst: true,
      render: (w) =>
        w.active ? (
          <Badge color="green" variant="light">
            Active
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            Inactive
          </Badge>
        ),
    },
    {
      id: 'modified',
      header: 'Changed',
      render: (w) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(w.lastUpdatedTime)}
        </Text>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Feature-service and geoprocessing webhooks of the servers federated with this organization. They are managed on each server&apos;s administration path;
        this list reads them.
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchBox value={owner} onSearch={setOwner} label="Owner" placeholder="Username" />
        <SegmentedControl
          aria-label="Service type"
          value={type}
          onChange={(v) => setType(v)}
          data={[
            { value: '', label: 'All types' },
            { value: 'FeatureServer', label: 'Feature' },
            { value: 'GPServer', label: 'Geoprocessing' },
          ]}
        />
        <SegmentedControl
          aria-label="State"
          value={state}
          onChange={(v) => setState(v)}
          data={[
            { value: '', label: 'Any state' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
      </Group>
      <DataTable
        label="Service webhooks"
        itemName="service webhooks"
        columns={columns}
        rows={rows}
        rowKey={(w) => w.id}
        loading={list.isPending}
        fetching={list.isPlaceholderData}
        error={list.isError ? list.error : undefined}
        onRetry={() => list.refetch()}
        empty={
          <EmptyPanel
            title="No service webhooks"
            description={owner || type || state ? 'None match these filters.' : 'No federated service has a webhook yet.'}
          />
        }
      />
      <Drawer opened={!!open} onClose={() => setOpen(null)} position="right" size="lg" title={open?.name ?? ''}>
        {open ? <ServiceWebhookFields webhook={open} /> : null}
      </Drawer>
    </Stack>
  );
}

function ServiceWebhookFields({ webhook: w }: { webhook: ServiceWebhookRecord }) {
  const empty = !Object.keys(w.scheduleInfo).length;
  const fields: [string, ReactNode][] = [
    ['id', <Code key="id">{w.id}</Code>],
    ['folderName', w.folderName || '(root)'],
    ['serviceName', w.serviceName],
    ['serviceType', w.serviceType],
    ['name', w.name],
    ['changeTypes', w.changeTypes.join(', ')],
    ['signatureKey', w.signatureKey ? 'Set (not shown)' : 'None'],
    ['hookUrl', <Code key="url">{w.hookUrl}</Code>],
    ['active', w.active ? 'true' : 'false'],
    ['contentType', w.contentType],
    [
      'scheduleInfo',
      empty ? (
        '{} (none: a geoprocessing webhook fires when a job succeeds, is canceled or fails)'
      ) : (
        <Code key="s" block>
          {JSON.stringify(w.scheduleInfo, null, 2)}
        </Code>
      ),
    ],
    ['payloadFormat', w.payloadFormat],
    ['createdTime', formatDateTime(w.createdTime)],
    ['lastUpdatedTime', formatDateTime(w.lastUpdatedTime)],
    ['owner', w.owner],
    ['modifiedId', w.modifiedId],
    ['itemId', w.itemId ?? '—'],
  ];
  return (
    <Table aria-label="Service webhook fields" withRowBorders>
      <Table.Tbody>
        {fields.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={140} style={{ verticalAlign: 'top' }}>
              <Text size="sm" ff="monospace">
                {k}
              </Text>
            </Table.Th>
            <Table.Td>{typeof v === 'string' ? <Text size="sm">{v}</Text> : v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
