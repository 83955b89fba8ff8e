/**
 * The item page's Dependencies tab: what uses the item ("Used by") and what it uses ("Uses"),
 * direct or, with the switch, everything further along as a tree; items the caller cannot see are
 * counted, never named; addresses that are no item are listed as links. Where the answers come from
 * (the portal's index, or a graph built in this browser) is said at the top.
 */
import { Alert, Anchor, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { DEPENDENCY_LIMITS, type DependencyAnswer, type DependencyUrl } from '../../../shared/contract/dependencies.ts';
import type { Item } from '../../api/index.ts';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount, plural } from '../../lib/format.ts';
import { DependencyTree } from './DependencyTree.tsx';
import { GraphStatus } from './GraphStatus.tsx';
import { useItemDependencies } from './queries.ts';
import { buildDependencyTree } from './tree.ts';
import { referenceInWords, webHost } from './wording.ts';

export function UsesPanel({ item }: { item: Pick<Item, 'id' | 'title'> }) {
  const [transitive, setTransitive] = useState({ usedBy: false, uses: false });
  const usedBy = useItemDependencies(item.id, 'usedBy', { transitive: transitive.usedBy });
  const uses = useItemDependencies(item.id, 'uses', { transitive: transitive.uses });
  return (
    <Stack gap="md">
      <GraphStatus info={usedBy.data?.graph ?? uses.data?.graph} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <DirectionSection
          direction="usedBy"
          answer={usedBy}
          transitive={transitive.usedBy}
          onTransitive={(on) => setTransitive((t) => ({ ...t, usedBy: on }))}
        />
        <DirectionSection direction="uses" answer={uses} transitive={transitive.uses} onTransitive={(on) => setTransitive((t) => ({ ...t, uses: on }))} />
      </SimpleGrid>
    </Stack>
  );
}

const WORDS = {
  usedBy: {
    title: 'Used by',
    switchLabel: 'Show everything that depends on it',
    listLabel: 'Items that use this item',
    none: 'Nothing in this organization uses this item that you can see.',
    hidden: (n: number, alsoVisible: boolean) => `${plural(n, 'item')} you cannot see ${alsoVisible ? 'also ' : ''}${n === 1 ? 'uses' : 'use'} it.`,
  },
  uses: {
    title: 'Uses',
    switchLabel: 'Show everything it needs',
    listLabel: 'Items this item uses',
    none: 'This item uses no other item that you can see.',
    hidden: (n: number, alsoVisible: boolean) => `It ${alsoVisible ? 'also ' : ''}uses ${plural(n, 'item')} you cannot see.`,
  },
} as const;

function DirectionSection(props: {
  direction: 'uses' | 'usedBy';
  answer: UseQueryResult<DependencyAnswer, Error>;
  transitive: boolean;
  onTransitive: (on: boolean) => void;
}) {
  const { direction, answer, transitive, onTransitive } = props;
  const words = WORDS[direction];
  const data = answer.data;
  return (
    <Paper withBorder p="md" radius="md" style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {words.title}
        </Title>
        <Switch label={words.switchLabel} checked={transitive} onChange={(e) => onTransitive(e.currentTarget.checked)} />
        {answer.isPending ? <LoadingState minHeight={80} label={`Loading what ${direction === 'usedBy' ? 'uses this item' : 'this item uses'}…`} /> : null}
        {answer.isError ? (
          <ErrorState
            error={answer.error}
            title={`Could not read what ${direction === 'usedBy' ? 'uses this item' : 'this item uses'}`}
            onRetry={() => void answer.refetch()}
          />
        ) : null}
        {data ? <AnswerView answer={data} /> : null}
      </Stack>
    </Paper>
  );
}

function AnswerView({ answer }: { answer: DependencyAnswer }) {
  const words = WORDS[answer.direction];
  const tree = buildDependencyTree(answer);
  const nothing = !answer.items.length && !answer.hidden && !answer.urls.length;
  return (
    <Stack gap="sm" data-testid={`dependencies-${answer.direction}`}>
      {nothing ? (
        <Text size="sm" c="dimmed">
          {words.none}
        </Text>
      ) : null}
      {tree.length ? <DependencyTree nodes={tree} direction={answer.direction} label={words.listLabel} /> : null}
      {answer.hidden ? <Text size="sm">{words.hidden(answer.hidden, answer.items.length > 0)}</Text> : null}
      {answer.urls.length ? <UrlList urls={answer.urls} rootId={answer.itemId} itemsById={new Map(answer.items.map((n) => [n.id, n.title]))} /> : null}
      {answer.truncated ? (
        <Alert color="yellow" variant="light" title="There may be more">
          <Text size="sm">
            The list stops at {formatCount(DEPENDENCY_LIMITS.maxNodes)} items, {formatCount(DEPENDENCY_LIMITS.maxEdges)} links between them or{' '}
            {DEPENDENCY_LIMITS.maxDepth} levels, and reads at most {formatCount(DEPENDENCY_LIMITS.maxRowsPerStep)} references a level; more items may be further
            along.
          </Text>
        </Alert>
      ) : null}
    </Stack>
  );
}

/** Addresses the item (or, further along, an item it uses) points at that are no item here. */
function UrlList({ urls, rootId, itemsById }: { urls: readonly DependencyUrl[]; rootId: string; itemsById: ReadonlyMap<string, string> }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h6">
        Web addresses that are no item you can see
      </Title>
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Web addresses used">
        {urls.map((u) => {
          const host = webHost(u.url);
          const through = u.from.toLowerCase() !== rootId.toLowerCase() ? itemsById.get(u.from) : undefined;
          return (
            <li key={`${u.from} ${u.url} ${u.kind}`}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {host ? (
                  <Anchor href={u.url} target="_blank" rel="noreferrer">
                    links to {host}
                  </Anchor>
                ) : (
                  <span>{u.url}</span>
                )}{' '}
                <Text span size="xs" c="dimmed">
                  {referenceInWords(u)}
                  {through ? `, used by ${through}` : ''}
                </Text>
              </Text>
              {host ? (
                <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {u.url}
                </Text>
              ) : null}
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
}
