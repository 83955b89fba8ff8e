/**
 * Where the dependency answers come from and how fresh they are. On the local portal: its index,
 * always current. Anywhere else the console builds the graph in this browser from the items' data:
 * how many items it read and when, a Refresh button, and progress while it reads (announced, as
 * the reading goes on out of sight).
 */
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { DependencyGraphInfo } from '../../../shared/contract/dependencies.ts';
import { describeError } from '../../api/index.ts';
import { IconAlert, IconRefresh } from '../../components/icons.tsx';
import { announce } from '../../lib/announce.ts';
import { formatCount, plural } from '../../lib/format.ts';
import { useDependencyGraph } from './queries.ts';
import { relativeTime } from './wording.ts';

/** `info`: the graph block of the answer shown beside it (item counts when the graph has them). */
export function GraphStatus({ info }: { info?: DependencyGraphInfo }) {
  const graph = useDependencyGraph();
  const now = useMinuteClock();
  useAnnounceBuilding(graph.building, graph.error, info?.itemsTotal ?? graph.progress?.total);

  if (graph.source === 'portal')
    return (
      <Text size="sm" c="dimmed" data-testid="graph-status">
        From the portal&apos;s index.
      </Text>
    );

  const total = info?.itemsTotal ?? info?.itemsRead ?? graph.progress?.total;
  const builtAt = info?.builtAt ?? graph.builtAt;
  return (
    <Stack gap={6} data-testid="graph-status">
      <Group gap="sm" wrap="wrap" justify="space-between">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 14rem' }}>
          {builtAt
            ? `Built in this browser from ${total === undefined ? 'the items' : plural(total, 'item')} you can see, updated ${relativeTime(builtAt, now)}.`
            : 'This portal keeps no index of references: the console builds it in this browser from the data of the items you can see.'}
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={() => graph.refresh()}
          loading={graph.building}
          loaderProps={{ type: 'dots' }}
        >
          Refresh
        </Button>
      </Group>
      {graph.building ? <BuildProgress read={graph.progress?.read} total={graph.progress?.total} /> : null}
      {graph.error ? (
        <Alert color="red" variant="light" icon={<IconAlert />} title="The graph could not be brought up to date" role="alert">
          <Text size="sm">{describeError(graph.error)}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
}

function BuildProgress({ read, total }: { read?: number; total?: number }) {
  const words = total ? `Reading item data: ${formatCount(read ?? 0)} of ${formatCount(total)} items` : 'Reading item data…';
  return (
    <Stack gap={2}>
      <Progress
        value={total ? Math.min(100, ((read ?? 0) / total) * 100) : 100}
        animated={!total}
        striped={!total}
        aria-label="Reading item data"
        aria-valuetext={words}
        size="sm"
      />
      <Text size="xs" c="dimmed">
        {words}
      </Text>
    </Stack>
  );
}

/** Says when building starts and how it ended; the progress itself is not spoken at every step. */
function useAnnounceBuilding(building: boolean, error: Error | undefined, total: number | undefined) {
  const was = useRef(building);
  useEffect(() => {
    if (building && !was.current) announce('Building the dependency graph in this browser…');
    if (!building && was.current) {
      if (error) announce(`The dependency graph could not be brought up to date: ${describeError(error)}`, 'assertive');
      else announce(total === undefined ? 'Dependency graph up to date.' : `Dependency graph up to date: ${plural(total, 'item')} read.`);
    }
    was.current = building;
  }, [building, error, total]);
}

/** Now, again every minute, so "updated 5 minutes ago" stays true on a page left open. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
