/**
 * Service webhooks of the organization's federated servers (listServiceWebhooks): filter by owner
 * (asked of the portal), service type and state (narrowed here), and a drawer that reads each one in
 * words — name, state, the service it watches, what sends it, where, when made and changed — with
 * the raw JSON behind a "Show JSON" disclosure.
 */
import { Badge, Button, Code, Drawer, Group, List, SegmentedControl, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ServiceWebhookRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { capitalize, formatDateTime } from '../../lib/format.ts';
import { serviceWebhooksQuery } from '../../api/queries/webhooks.ts';

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
        <>
          <Text size="sm">{w.serviceName}</Text>
          <Text size="xs" c="dimmed">
            {capitalize(SERVICE_TYPE_WORDS[w.serviceType] ?? w.serviceType)}
            {w.folderName ? ` · folder ${w.folderName}` : ''}
          </Text>
        </>
      ),
    },
    { id: 'triggers', header: 'Sent when', render: (w) => <Text size="sm">{describeChangeTypes(w).join(', ')}</Text> },
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
            Paused
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

/** The words a service webhook's trigger stands for (`*` is every one). */
const CHANGE_TYPE_WORDS: Record<string, string> = {
  '*': 'Every change',
  FeaturesCreated: 'Features created',
  FeaturesUpdated: 'Features updated',
  FeaturesDeleted: 'Features deleted',
  FeaturesEdited: 'Features edited (any edit)',
  AttachmentsCreated: 'Attachments created',
  AttachmentsUpdated: 'Attachments updated',
  AttachmentsDeleted: 'Attachments deleted',
  LayerSchemaChanged: 'Layer schema changed',
  LayerDefinitionChanged: 'Layer definition changed',
  FeatureServiceDefinitionChanged: 'Service definition changed',
};

/** A trigger in words; a geoprocessing webhook's only trigger is the end of a job. */
export function describeChangeTypes(w: Pick<ServiceWebhookRecord, 'changeTypes' | 'serviceType'>): string[] {
  if (w.serviceType === 'GPServer') return ['A job succeeds, is canceled or fails'];
  if (!w.changeTypes.length || w.changeTypes.includes('*')) return ['Every change to the service'];
  return w.changeTypes.map((c) => CHANGE_TYPE_WORDS[c] ?? c);
}

const SERVICE_TYPE_WORDS: Record<string, string> = { FeatureServer: 'feature service', GPServer: 'geoprocessing service' };

const FREQUENCY_WORDS: Record<string, [string, string]> = {
  second: ['second', 'seconds'],
  minute: ['minute', 'minutes'],
  hour: ['hour', 'hours'],
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
};

function describeSchedule(s: ServiceWebhookRecord['scheduleInfo']): string {
  if (!('recurrenceInfo' in s)) return 'None: it is sent as each change or job happens';
  const { frequency, interval } = s.recurrenceInfo;
  const [one, many] = FREQUENCY_WORDS[frequency] ?? [frequency, frequency];
  const every = interval === 1 ? `every ${one}` : `every ${interval} ${many}`;
  return `${capitalize(every)} from ${formatDateTime(s.startAt)}${s.state === 'disabled' ? ' (schedule paused)' : ''}`;
}

function ServiceWebhookDetails({ webhook: w }: { webhook: ServiceWebhookRecord }) {
  const [json, setJson] = useState(false);
  const events = describeChangeTypes(w);
  const fields: [string, ReactNode][] = [
    ['Name', w.name],
    [
      'State',
      w.active ? (
        <Badge color="green" variant="light" tt="none">
          Active: changes are sent
        </Badge>
      ) : (
        <Badge color="gray" variant="light" tt="none">
          Paused: nothing is sent
        </Badge>
      ),
    ],
    [
      'Watches',
      <Stack gap={0} key="service">
        <Text size="sm" fw={600}>
          {w.serviceName}
        </Text>
        <Text size="xs" c="dimmed">
          {capitalize(SERVICE_TYPE_WORDS[w.serviceType] ?? w.serviceType)} in {w.folderName ? `the folder ${w.folderName}` : 'the root folder'}
        </Text>
      </Stack>,
    ],
    [
      'Sent when',
      events.length === 1 ? (
        events[0]
      ) : (
        <List size="sm" key="events">
          {events.map((e) => (
            <List.Item key={e}>{e}</List.Item>
          ))}
        </List>
      ),
    ],
    [
      'Receiver URL',
      <Text key="url" size="sm" style={{ wordBreak: 'break-all' }}>
        {w.hookUrl}
      </Text>,
    ],
    ['Sent as', `${w.contentType === 'application/json' ? 'JSON body' : 'Form fields'}${w.payloadFormat === 'pjson' ? ' (indented)' : ''}`],
    ['Signed', w.signatureKey ? 'Yes, with a signature key (not shown)' : 'No signature key'],
    ['Schedule', describeSchedule(w.scheduleInfo)],
    ['Owner', w.owner],
    ['Created', formatDateTime(w.createdTime)],
    ['Last changed', formatDateTime(w.lastUpdatedTime)],
  ];
  return (
    <Stack gap="md">
      <Table aria-label="Service webhook details" withRowBorders>
        <Table.Tbody>
          {fields.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th scope="row" w={130} style={{ verticalAlign: 'top' }}>
                <Text size="sm">{k}</Text>
              </Table.Th>
              <Table.Td>{typeof v === 'string' ? <Text size="sm">{v}</Text> : v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <div>
        <Button variant="subtle" size="xs" onClick={() => setJson((o) => !o)} aria-expanded={json}>
          {json ? 'Hide JSON' : 'Show JSON'}
        </Button>
        {json ? (
          <Code block aria-label="Service webhook as JSON" mt="xs">
            {JSON.stringify(w, null, 2)}
          </Code>
        ) : null}
      </div>
    </Stack>
  );
}
