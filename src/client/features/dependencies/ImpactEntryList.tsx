/** The items that use the changed ones, each with what it is and how it uses them. */
import { List, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ImpactEntry } from './impact.ts';
import { describeNode, usesWords } from './impactWords.ts';

export function ImpactEntryList({ entries, label, extra }: { entries: readonly ImpactEntry[]; label: string; extra?: (e: ImpactEntry) => ReactNode }) {
  return (
    <List size="sm" spacing={4} aria-label={label}>
      {entries.map((e) => (
        <List.Item key={e.node.id} data-testid="impact-entry">
          <Text size="sm" span fw={600}>
            {describeNode(e)}
          </Text>
          <Text size="sm" span>
            {' '}
            — {usesWords(e)}
          </Text>
          {extra?.(e)}
        </List.Item>
      ))}
    </List>
  );
}
