/**
 * A dependency answer as nested lists: each level a list inside the item above it, so screen
 * readers say the level ("list, 2 items, level 2") and the keyboard goes through the links in
 * reading order. Deep levels stop indenting further (a line and the level in words keep them
 * apart), so a long chain does not push the rows off a phone's screen.
 */
import { Box, Text } from '@mantine/core';
import type { DependencyTreeNode } from './tree.ts';
import { DependencyNodeRow } from './DependencyNodeRow.tsx';

/** Levels indented; below them the rows line up with the last indented level. */
const INDENTED_LEVELS = 4;

export function DependencyTree({ nodes, direction, label }: { nodes: readonly DependencyTreeNode[]; direction: 'uses' | 'usedBy'; label: string }) {
  return <Level nodes={nodes} direction={direction} depth={1} label={label} />;
}

function Level({ nodes, direction, depth, label }: { nodes: readonly DependencyTreeNode[]; direction: 'uses' | 'usedBy'; depth: number; label?: string }) {
  const indent = depth > 1 && depth <= INDENTED_LEVELS + 1;
  return (
    <Box
      component="ul"
      aria-label={label}
      m={0}
      p={0}
      style={{
        listStyle: 'none',
        paddingInlineStart: indent ? 'min(1.25rem, 4vw)' : 0,
        borderInlineStart: indent ? '2px solid var(--mantine-color-default-border)' : undefined,
        marginInlineStart: indent ? 6 : 0,
      }}
    >
      {nodes.map((node) => (
        <li key={node.item.id}>
          {depth > INDENTED_LEVELS + 1 ? (
            <Text size="xs" c="dimmed" pl={24}>
              Level {depth}
            </Text>
          ) : null}
          <DependencyNodeRow item={node.item} edges={node.edges} direction={direction} alsoThrough={node.alsoThrough} throughHidden={node.throughHidden} />
          {node.children.length ? <Level nodes={node.children} direction={direction} depth={depth + 1} /> : null}
        </li>
      ))}
    </Box>
  );
}
