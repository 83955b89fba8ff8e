/**
 * The pre-check's reasons that several items share, each said once: "3 items: <reason>", its fix and
 * the items' titles — instead of the same sentence repeated on every row (the rows refer here).
 */
import { Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { fixFor, type CheckOutcome } from '../lib/transfer.ts';

type Reason = Extract<CheckOutcome, { status: 'blocked' }>['blocked']['reasons'][number];

interface SharedReason {
  reason: Reason;
  itemIds: string[];
}

/** The reasons (by their words) that block two or more of the items, most common first. */
export function sharedReasons(outcomes: readonly CheckOutcome[]): SharedReason[] {
  const byMessage = new Map<string, SharedReason>();
  for (const o of outcomes) {
    if (o.status !== 'blocked') continue;
    for (const reason of o.blocked.reasons ?? []) {
      const group = byMessage.get(reason.message) ?? { reason, itemIds: [] };
      if (!group.itemIds.includes(o.itemId)) group.itemIds.push(o.itemId);
      byMessage.set(reason.message, group);
    }
  }
  return [...byMessage.values()].filter((g) => g.itemIds.length > 1).sort((a, b) => b.itemIds.length - a.itemIds.length);
}

export function SharedCheckReasons({ groups, titleOf, target }: { groups: SharedReason[]; titleOf: (id: string) => string; target: string }) {
  if (!groups.length) return null;
  return (
    <List aria-label="Reasons shared by several items" spacing="xs" size="sm">
      {groups.map((g) => {
        const fix = fixFor(g.reason, target);
        return (
          <List.Item key={g.reason.message}>
            <Stack gap={2}>
              <Text size="sm" fw={600}>
                {`${g.itemIds.length} items: ${g.reason.message}`}
              </Text>
              <Text size="sm">
                Fix: {fix.text}{' '}
                {fix.href ? (
                  <Anchor component={Link} to={fix.href} size="sm">
                    Open
                  </Anchor>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed">
                {g.itemIds.map(titleOf).join(', ')}
              </Text>
            </Stack>
          </List.Item>
        );
      })}
    </List>
  );
}
