/** The service webhooks table's columns; the name opens the webhook's drawer. */
import { Badge, Text, UnstyledButton } from '@mantine/core';
import type { ServiceWebhookRecord } from '../../api/index.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { capitalize, formatDateTime } from '../../lib/format.ts';
import { describeChangeTypes, SERVICE_TYPE_WORDS } from './serviceWebhookWords.ts';

export function serviceWebhookColumns(setOpen: (w: ServiceWebhookRecord) => void): DataTableColumn<ServiceWebhookRecord>[] {
  return [
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
}
