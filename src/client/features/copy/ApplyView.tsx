/** The copy running (a state per item), then its results: links to the copies, and what a failure left. */
import { Alert, Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { memo, useEffect, useRef } from 'react';
import { describeError } from '../../api/index.ts';
import { CopyFailed, type CopyResult, type StepState } from './apply.ts';
import type { CopyPlan } from './plan.ts';

const STATE: Record<StepState, { label: string; color: string }> = {
  waiting: { label: 'Waiting', color: 'gray' },
  running: { label: 'Copying…', color: 'blue' },
  done: { label: 'Copied', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  rolledBack: { label: 'Removed again', color: 'orange' },
};

export interface ApplyViewProps {
  plan: CopyPlan;
  states: ReadonlyMap<string, StepState>;
  result?: CopyResult;
  error?: unknown;
  /** After undo: the ids deleted from the target. */
  deleted?: ReadonlySet<string>;
  hrefOf: (targetId: string) => string;
  /** Who the copies belong to: they open for that account. */
  targetUser: string;
}

export function ApplyView({ plan, states, result, error, deleted, hrefOf, targetUser }: ApplyViewProps) {
  const summary = useRef<HTMLParagraphElement>(null);
  const finished = !!result || !!error;
  const undone = !!deleted;
  useEffect(() => {
    if (finished) summary.current?.focus();
  }, [finished, undone]);
  const copied = new Map(result?.items.map((i) => [i.sourceId, i]));
  return (
    <Stack gap="sm">
      <Text size="sm" role="status" ref={summary} tabIndex={-1} fw={500}>
        {deleted
          ? `Undone: ${deleted.size} item${deleted.size === 1 ? '' : 's'} this copy created deleted from the target.`
          : result
            ? `Copied ${result.items.length} item${result.items.length === 1 ? '' : 's'}: ${result.created.length} created, ${result.items.length - result.created.length} updated.`
            : error instanceof CopyFailed && error.leftBehind.length
              ? 'The copy stopped, and what it had created could not all be removed. Resume it from Content to finish it.'
              : error
                ? 'The copy failed. Items it had created were removed again.'
                : `Copying ${plan.steps.length} items…`}
      </Text>
      {result && !deleted ? (
        <Text size="sm" c="dimmed">
          The copies belong to {targetUser}: they open in a new tab, where the target asks for that account if it is not signed in there.
        </Text>
      ) : null}
      {result?.skippedGroups.length && !deleted ? (
        <Alert color="orange" variant="light" title="Not shared to every group">
          <Stack gap={4} component="ul" style={{ margin: 0, paddingLeft: '1.2em' }} aria-label="Groups not shared to">
            {result.skippedGroups.map((g) => (
              <Text key={g.id} size="sm" component="li">
                {g.reason}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" title="Copy failed" role="alert">
          {error instanceof CopyFailed ? error.message : describeError(error)}
          {error instanceof CopyFailed && error.leftBehind.length ? <Text size="sm">Could not remove: {error.leftBehind.join(', ')}.</Text> : null}
        </Alert>
      ) : null}
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Copy progress">
        {plan.steps.map((s) => {
          const item = copied.get(s.source.id);
          return (
            <ProgressRow
              key={s.source.id}
              title={s.source.title}
              state={states.get(s.source.id) ?? 'waiting'}
              item={item && !undone ? { action: item.action, targetId: item.targetId, href: hrefOf(item.targetId) } : undefined}
              deleted={!!item && !!deleted?.has(item.targetId)}
            />
          );
        })}
      </Stack>
    </Stack>
  );
}

interface ProgressRowProps {
  title: string;
  state: StepState;
  item?: { action: 'create' | 'update'; targetId: string; href: string };
  deleted: boolean;
}

/** One item's row: memoized, so that each step's change redraws its own row, not every row of a long copy. */
const ProgressRow = memo(
  function ProgressRow({ title, state, item, deleted }: ProgressRowProps) {
    return (
      <Paper withBorder p="xs" radius="md" component="li">
        <Group justify="space-between" wrap="nowrap">
          <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>
            <Text size="sm" fw={500}>
              {title}
            </Text>
            {item ? (
              <Anchor size="sm" href={item.href} target="_blank" rel="noreferrer">
                Open the {item.action === 'create' ? 'new' : 'updated'} item {item.targetId}
              </Anchor>
            ) : null}
          </div>
          <Badge color={STATE[state].color} variant="light" style={{ flexShrink: 0 }}>
            {deleted ? 'Deleted' : STATE[state].label}
          </Badge>
        </Group>
      </Paper>
    );
  },
  (a, b) => a.title === b.title && a.state === b.state && a.deleted === b.deleted && a.item?.href === b.item?.href && a.item?.action === b.item?.action,
);
