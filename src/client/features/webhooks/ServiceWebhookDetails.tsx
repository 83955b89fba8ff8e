/** One service webhook read in words, with the raw JSON behind a "Show JSON" disclosure. */
import { Badge, Button, Code, List, Stack, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { ServiceWebhookRecord } from '../../api/index.ts';
import { capitalize, formatDateTime } from '../../lib/format.ts';
import { describeChangeTypes, describeSchedule, SERVICE_TYPE_WORDS } from './serviceWebhookWords.ts';

export function ServiceWebhookDetails({ webhook: w }: { webhook: ServiceWebhookRecord }) {
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
