/**
 * Privilege sets side by side: what a change adds and removes (shown before a role is saved), and
 * how two roles compare (only in A / only in B / in both). Both work on effective privileges.
 */
import { Badge, Group, Paper, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { privilegeById } from '../../shared/privileges.ts';
import { capitalize } from '../lib/format.ts';
import type { PrivilegeComparison, PrivilegeDiff } from '../lib/privilegeSets.ts';

function PrivilegeList({ title, ids, color, empty }: { title: string; ids: readonly string[]; color: string; empty: string }) {
  const headingId = useId();
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby={headingId}>
      <Group gap="xs" mb="xs">
        <Title order={4} fz="sm" id={headingId}>
          {title}
        </Title>
        <Badge variant="light" color={color} size="sm" circle={ids.length < 10}>
          {ids.length}
        </Badge>
      </Group>
      {ids.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        // A long list scrolls in its own viewport, which takes focus to be scrolled with the keyboard.
        <ScrollArea.Autosize mah={340} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, role: 'group', 'aria-labelledby': headingId }}>
          <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {ids.map((id) => {
              const def = privilegeById(id);
              return (
                <li key={id} data-privilege={id}>
                  <Text size="sm">{def?.label ?? id}</Text>
                  <Text size="xs" c="dimmed">
                    {def ? `${capitalize(def.area)} · ${def.kind} · ` : ''}
                    <Text span ff="monospace" size="xs" style={{ overflowWrap: 'anywhere' }}>
                      {id}
                    </Text>
                  </Text>
                </li>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}

/** Added / removed, as saving would change them. */
export function PrivilegeDiffView({ diff }: { diff: PrivilegeDiff }) {
  if (!diff.added.length && !diff.removed.length) {
    return (
      <Text size="sm" c="dimmed" data-testid="privilege-diff-none">
        The privileges stay as they are.
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <PrivilegeList title="Added" ids={diff.added} color="green" empty="Nothing added." />
      <PrivilegeList title="Removed" ids={diff.removed} color="red" empty="Nothing removed." />
    </SimpleGrid>
  );
}

/** Two roles side by side. */
export function PrivilegeComparisonView({ nameA, nameB, comparison }: { nameA: string; nameB: string; comparison: PrivilegeComparison }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
      <PrivilegeList title={`Only in ${nameA}`} ids={comparison.onlyA} color="blue" empty={`Nothing that ${nameB} lacks.`} />
      <PrivilegeList title={`Only in ${nameB}`} ids={comparison.onlyB} color="orange" empty={`Nothing that ${nameA} lacks.`} />
      <PrivilegeList title="In both" ids={comparison.both} color="gray" empty="Nothing in common." />
    </SimpleGrid>
  );
}
