/**
 * One item in a dependency list: its type icon, title (a link to its page), type, owner, sharing,
 * content status, and how it is referenced, in words. Wraps instead of running off a phone's screen.
 */
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DependencyEdge, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { ContentStatusBadge, ItemAccessBadge } from '../../components/ItemBadges.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { referencesInWords } from './wording.ts';

export interface DependencyNodeRowProps {
  item: DependencyNode;
  /** The references that put this item in the list; none when it was reached through hidden items. */
  edges: readonly DependencyEdge[];
  /** "Used by": the item uses its parent ("uses it as a layer"); "Uses": it is used ("as a layer"). */
  direction: 'uses' | 'usedBy';
  /** Other items that lead here too (the row is drawn once). */
  alsoThrough?: readonly DependencyNode[];
  throughHidden?: boolean;
}

export function DependencyNodeRow({ item, edges, direction, alsoThrough = [], throughHidden }: DependencyNodeRowProps) {
  const how = edges.length ? referencesInWords(edges) : '';
  return (
    <Stack gap={4} py={6} data-testid="dependency-row" style={{ minWidth: 0 }}>
      <Group gap={8} wrap="nowrap" align="flex-start">
        <Text component="span" c="dimmed" style={{ display: 'flex', paddingTop: 3, flexShrink: 0 }}>
          <ItemTypeIcon type={item.type} />
        </Text>
        <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/content/items/${item.id}`} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {item.title || item.id}
          </Anchor>
          <ContentStatusBadge status={item.contentStatus} />
          <ReplacedByNote item={item} size="xs" />
          <ItemAccessBadge access={item.access} />
        </Group>
      </Group>
      <Text size="xs" c="dimmed" pl={24} style={{ overflowWrap: 'anywhere' }}>
        {item.type} · owned by {item.owner}
        {how ? ` · ${direction === 'usedBy' ? `uses it ${how}` : how}` : ''}
        {throughHidden ? ` · ${direction === 'usedBy' ? 'uses it through' : 'used through'} items you cannot see` : ''}
      </Text>
      {alsoThrough.length ? (
        <Text size="xs" c="dimmed" pl={24} style={{ overflowWrap: 'anywhere' }}>
          {direction === 'usedBy' ? 'Also uses ' : 'Also used by '}
          {alsoThrough.map((other, i) => (
            <span key={other.id}>
              {i ? ', ' : ''}
              <Anchor component={Link} to={`/content/items/${other.id}`} size="xs">
                {other.title || other.id}
              </Anchor>
            </span>
          ))}
        </Text>
      ) : null}
    </Stack>
  );
}
