/**
 * One object's history (an item, group, role, member, webhook or task): the same history operation
 * as the Activity page, with `id` (and the target type, since a username and an id may look alike),
 * the same words and the same undo. Only administrators may read history, so the section is not
 * shown to anyone else; a portal without the operation (ArcGIS Enterprise) gets one short line.
 */
import { Button, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isHistoryUnavailable } from '../api/index.ts';
import { historyPagesQuery } from '../api/queries/history.ts';
import type { HistoryIdType } from '../../shared/contract/history.ts';
import { can } from '../lib/can.ts';
import { useCurrentUser } from '../lib/session.ts';
import { HistoryList } from './HistoryList.tsx';

const PAGE = 25;

/** The portal answers history to administrators only (docs/history.md, Access): its declaration, HISTORY_READ_OPERATIONS.history. */
export const mayReadHistory = (user: Parameters<typeof can>[0]) => can(user, 'history').allowed;

export interface HistorySectionProps {
  /** The target: an item, group, role, webhook or task id, or a username. */
  id: string;
  type: HistoryIdType;
  /** What the target is called in the table's name, e.g. "the item 'Parcels'". */
  name: string;
  /**
   * A page section: an h2 "History" and a "Show history" button, so the history is read only when
   * asked for (it is secondary on these pages). Off inside a tab or drawer, which is itself the ask.
   */
  heading?: boolean;
}

export function HistorySection({ heading = false, ...target }: HistorySectionProps) {
  const user = useCurrentUser();
  const headingId = useId();
  const bodyId = useId();
  const [shown, setShown] = useState(false);
  if (!mayReadHistory(user)) return null;
  if (!heading) return <HistoryBody {...target} />;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} mt="xl">
      <Group gap="md">
        <Title order={2} fz="lg" id={headingId}>
          History
        </Title>
        <Button variant="default" size="xs" aria-expanded={shown} aria-controls={bodyId} onClick={() => setShown(!shown)}>
          {shown ? 'Hide history' : 'Show history'}
        </Button>
      </Group>
      <div id={bodyId}>{shown ? <HistoryBody {...target} /> : null}</div>
    </Stack>
  );
}

function HistoryBody({ id, type, name }: Omit<HistorySectionProps, 'heading'>) {
  const user = useCurrentUser();
  const query = { id, types: [type] };
  const history = useInfiniteQuery(historyPagesQuery(user.orgId, query, PAGE));
  if (history.error && isHistoryUnavailable(history.error))
    return (
      <Text size="sm" c="dimmed">
        History is not available on this portal.
      </Text>
    );
  return (
    <HistoryList
      label={`History of ${name}`}
      rows={history.data?.pages.flatMap((p) => p.items)}
      showTarget={false}
      loading={history.isPending}
      fetching={history.isFetching}
      error={history.error}
      onRetry={() => void history.refetch()}
      empty={
        <Text ta="center" c="dimmed" py="md" size="sm">
          No recorded changes.
        </Text>
      }
      hasMore={history.hasNextPage}
      loadingMore={history.isFetchingNextPage}
      onLoadMore={() => void history.fetchNextPage()}
    />
  );
}

export interface HistoryTarget {
  id: string;
  type: HistoryIdType;
  /** As in HistorySection, e.g. "the member user1". */
  name: string;
  /** The drawer's title after "History: ". */
  title: string;
}

/** One object's history in a drawer, for lists whose rows have no page of their own (members, tasks). */
export function HistoryDrawer({ target, onClose }: { target: HistoryTarget | null; onClose: () => void }) {
  return (
    <Drawer opened={!!target} onClose={onClose} position="right" size="xl" title={target ? `History: ${target.title}` : ''}>
      {target ? <HistorySection id={target.id} type={target.type} name={target.name} /> : null}
    </Drawer>
  );
}
