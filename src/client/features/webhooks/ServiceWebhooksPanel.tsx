/**
 * Service webhooks of the organization's federated servers (listServiceWebhooks): filter by owner
 * (asked of the portal), service type and state (narrowed here), and a drawer that reads each one in
 * words — name, state, the service it watches, what sends it, where, when made and changed — with
 * the raw JSON behind a "Show JSON" disclosure.
 */
import { Drawer, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ServiceWebhookRecord } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { serviceWebhooksQuery } from '../../api/queries/webhooks.ts';
import { serviceWebhookColumns } from './serviceWebhookColumns.tsx';
import { ServiceWebhookDetails } from './ServiceWebhookDetails.tsx';

type TypeFilter = '' | 'FeatureServer' | 'GPServer';
type StateFilter = '' | 'active' | 'inactive';

export function ServiceWebhooksPanel({ orgId }: { orgId: string }) {
  const [owner, setOwner] = useState('');
  const [type, setType] = useState<TypeFilter>('');
  const [state, setState] = useState<StateFilter>('');
  const [open, setOpen] = useState<ServiceWebhookRecord | null>(null);
  const list = useQuery(serviceWebhooksQuery(orgId, owner));
  const rows = list.data?.webhooks.filter((w) => (!type || w.serviceType === type) && (!state || w.active === (state === 'active')));

  const columns = serviceWebhookColumns(setOpen);

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
            { value: 'inactive', label: 'Paused' },
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
        {open ? <ServiceWebhookDetails webhook={open} /> : null}
      </Drawer>
    </Stack>
  );
}
