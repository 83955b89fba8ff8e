/**
 * The plan's groups: each source group the copies are shared with, and its match in the target (or a
 * new group, which can be left out; or a match the target member may not share to, with the reason).
 */
import { Badge, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { GroupPlan } from './travel.ts';

const ACCESS: Record<GroupPlan['access'], string> = { private: 'private', org: 'the organization', public: 'everyone' };

export interface GroupsPlanProps {
  groups: readonly GroupPlan[];
  /** Source ids of the groups not to create (the copies are then not shared to them). */
  skipped: ReadonlySet<string>;
  onToggle: (sourceGroupId: string, create: boolean) => void;
}

export function GroupsPlan({ groups, skipped, onToggle }: GroupsPlanProps) {
  if (!groups.length) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Groups the copies are shared with
      </Title>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Groups in the target">
        {groups.map((g) => (
          <Paper key={g.source.id} withBorder p="xs" radius="md" component="li" data-testid="copy-plan-group">
            {g.action === 'skip' && g.existing && g.reason ? (
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <strong>{g.source.title}</strong>: {g.reason}
                </Text>
                <Badge variant="light" color="orange" style={{ flexShrink: 0 }}>
                  Not shared
                </Badge>
              </Group>
            ) : g.action === 'use' && g.existing ? (
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  <strong>{g.source.title}</strong>: shared to its copy there, {g.existing.title} ({g.existing.id}).
                </Text>
                <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
                  Found
                </Badge>
              </Group>
            ) : (
              <Checkbox
                checked={!skipped.has(g.source.id)}
                onChange={(e) => onToggle(g.source.id, e.currentTarget.checked)}
                label={`Create the group ${g.source.title} in the target`}
                description={`Not there yet (no group tagged source-${g.source.id}). Created visible to ${ACCESS[g.access]}; left out, the copies are not shared to it.`}
              />
            )}
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}

/** The plan with the left-out groups marked skip. */
export function withSkippedGroups<P extends { groups: readonly GroupPlan[] }>(plan: P, skipped: ReadonlySet<string>): P {
  return { ...plan, groups: plan.groups.map((g) => (g.action === 'create' && skipped.has(g.source.id) ? { ...g, action: 'skip' as const } : g)) };
}
