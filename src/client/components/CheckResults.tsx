/**
 * The pre-check's answer: counts, the reasons several items share (said once, with their count),
 * then one row per item — transferable, or blocked with its own reasons and their fixes.
 */
import { Anchor, Badge, Group, List, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { fixFor, type CheckOutcome } from '../lib/transfer.ts';
import { SharedCheckReasons, sharedReasons } from './SharedCheckReasons.tsx';

const ORDER = { blocked: 0, error: 1, ok: 2 } as const;

export function CheckResults({ outcomes, titleOf, target }: { outcomes: CheckOutcome[]; titleOf: (id: string) => string; target: string }) {
  const count = (s: CheckOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  const rows = [...outcomes].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  const shared = sharedReasons(outcomes);
  const sharedCount = new Map(shared.map((g) => [g.reason.message, g.itemIds.length]));
  return (
    <Stack gap="xs">
      <Group gap="xs" role="status">
        <Badge color="green" variant="light" tt="none">
          {count('ok')} transferable
        </Badge>
        <Badge color={count('blocked') ? 'red' : 'gray'} variant="light" tt="none">
          {count('blocked')} blocked
        </Badge>
        {count('error') ? (
          <Badge color="orange" variant="light" tt="none">
            {count('error')} not checked
          </Badge>
        ) : null}
      </Group>
      <SharedCheckReasons groups={shared} titleOf={titleOf} target={target} />
      <ScrollArea.Autosize mah={460} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Pre-check results, scrollable' }}>
        <Table aria-label="Pre-check results" striped stickyHeader verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Item</Table.Th>
              <Table.Th w={120}>Result</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Fix</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((o) => (
              <Table.Tr key={o.itemId} data-status={o.status}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {titleOf(o.itemId)}
                  </Text>
                  {o.status === 'blocked' && o.blocked.type ? (
                    <Text size="xs" c="dimmed">
                      {o.blocked.type}
                      {o.blocked.reservedTypeKeywords.length ? ` · ${o.blocked.reservedTypeKeywords.join(', ')}` : ''}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Badge
                    size="sm"
                    variant="light"
                    tt="none"
                    style={{ overflow: 'visible' }}
                    color={o.status === 'ok' ? 'green' : o.status === 'blocked' ? 'red' : 'orange'}
                  >
                    {o.status === 'ok' ? 'OK' : o.status === 'blocked' ? 'Blocked' : 'Not checked'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {o.status === 'blocked' ? (
                    <List size="sm" spacing={2}>
                      {(o.blocked.reasons?.length
                        ? o.blocked.reasons
                        : [{ code: 'itemNotFound' as const, message: o.blocked.reason ?? 'Refused by the portal; the portal gave no reason.' }]
                      ).map((r, i) => (
                        <List.Item key={i}>
                          {sharedCount.has(r.message)
                            ? `Shared with ${sharedCount.get(r.message)! - 1} other item${sharedCount.get(r.message) === 2 ? '' : 's'}: see above`
                            : r.message}
                        </List.Item>
                      ))}
                    </List>
                  ) : o.status === 'error' ? (
                    <Text size="sm">{o.message}</Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      May go to {target}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {o.status === 'blocked' && o.blocked.reasons?.length ? (
                    <List size="sm" spacing={2}>
                      {o.blocked.reasons.map((r, i) => {
                        if (sharedCount.has(r.message)) return <List.Item key={i}>As above</List.Item>;
                        const fix = fixFor(r, target);
                        return (
                          <List.Item key={i}>
                            {fix.text}{' '}
                            {fix.href ? (
                              <Anchor component={Link} to={fix.href} size="sm">
                                Open
                              </Anchor>
                            ) : null}
                          </List.Item>
                        );
                      })}
                    </List>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
