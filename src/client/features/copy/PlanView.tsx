/**
 * The plan before anything changes in the target: each item to create or update there, the ids
 * rewritten inside its data, what differs from the copy already there, and what cannot be copied.
 */
import { Alert, Badge, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { GroupsPlan } from './GroupsPlan.tsx';
import type { CopyPlan, Difference, PlanStep } from './plan.ts';

const FIELD: Record<Difference['field'], string> = { title: 'Title', snippet: 'Summary', tags: 'Tags', data: 'Data' };
const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s);

const LEVEL = { private: 'the owner only', org: 'the organization', public: 'everyone' } as const;

function SharingLine({ step, groupTitles }: { step: PlanStep; groupTitles: ReadonlyMap<string, string> }) {
  const groups = step.groups.map((g) => groupTitles.get(g)).filter((t): t is string => !!t);
  if (step.access.copied === 'private' && !groups.length && !step.access.narrowed) return null;
  return (
    <Text size="sm">
      Shared with {LEVEL[step.access.copied]}
      {groups.length ? `, and the group${groups.length === 1 ? '' : 's'} ${groups.join(', ')}` : ''}.
      {step.access.narrowed ? (
        <Text span c="orange.8" size="sm">
          {' '}
          {step.access.narrowed}
        </Text>
      ) : null}
    </Text>
  );
}

function StepCard({ step, groupTitles }: { step: PlanStep; groupTitles: ReadonlyMap<string, string> }) {
  const { source } = step;
  const carried = [
    step.dataKind === 'file' ? 'its file' : step.dataKind === 'text' ? 'its data' : step.dataKind === 'url' ? 'its URL' : null,
    step.thumbnail ? 'thumbnail' : null,
    step.resources ? `${step.resources} resource${step.resources === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return (
    <Paper withBorder p="sm" radius="md" component="li" data-testid="copy-plan-step">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>
          <Text fw={600}>{source.title}</Text>
          <Text size="xs" c="dimmed">
            {source.type} · {source.id}
          </Text>
        </div>
        <Badge color={step.action === 'create' ? 'green' : 'blue'} variant="light" style={{ flexShrink: 0 }}>
          {step.action === 'create' ? 'Create' : 'Update'}
        </Badge>
      </Group>
      {step.existing ? (
        <Text size="sm" mt={4}>
          Already there as {step.existing.id} (owner {step.existing.owner}){step.differences.length ? '' : ': nothing differs'}.
        </Text>
      ) : null}
      {carried.length ? <Text size="sm">Carries {carried.join(', ')}.</Text> : null}
      <SharingLine step={step} groupTitles={groupTitles} />
      {step.relationships.length ? (
        <List size="sm" mt={4} aria-label={`Relationships of ${source.title}`}>
          {step.relationships.map((r) => (
            <List.Item key={`${r.type}:${r.destinationId}`}>
              Relationship {r.type} to {r.destinationTitle}, recreated between the copies
            </List.Item>
          ))}
        </List>
      ) : null}
      {step.rewrites.length ? (
        <Stack gap={2} mt={4}>
          <Text size="sm" fw={500}>
            Ids rewritten in its data
          </Text>
          <List size="sm" aria-label={`Ids rewritten in ${source.title}`}>
            {step.rewrites.map((r) => (
              <List.Item key={r.from}>
                <Code>{r.from}</Code> ({r.title}) → {r.to ? <Code>{r.to}</Code> : 'the new copy'}
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
      {step.differences.length ? (
        <Stack gap={2} mt={4}>
          <Text size="sm" fw={500}>
            Differs from the copy there
          </Text>
          <List size="sm" aria-label={`Differences of ${source.title}`}>
            {step.differences.map((d) => (
              <List.Item key={d.field}>
                {d.paths ? (
                  <>
                    {FIELD[d.field]} at{' '}
                    {d.paths.map((p, i) => (
                      <Fragment key={p}>
                        {i ? ', ' : ''}
                        <Code>{p}</Code>
                      </Fragment>
                    ))}
                  </>
                ) : (
                  <>
                    {FIELD[d.field]}: <del>{clip(d.before)}</del> → <ins>{clip(d.after)}</ins>
                  </>
                )}
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
    </Paper>
  );
}

export interface PlanViewProps {
  plan: CopyPlan;
  targetLabel: string;
  skippedGroups: ReadonlySet<string>;
  onToggleGroup: (sourceGroupId: string, create: boolean) => void;
}

export function PlanView({ plan, targetLabel, skippedGroups, onToggleGroup }: PlanViewProps) {
  // A group left out, or one the target member may not share to, is not shared to: its title is not named on the items.
  const shared = (g: CopyPlan['groups'][number]) => g.action === 'use' || (g.action === 'create' && !skippedGroups.has(g.source.id));
  const groupTitles = new Map(plan.groups.filter(shared).map((g) => [g.source.id, g.source.title]));
  const creates = plan.steps.filter((s) => s.action === 'create').length;
  const updates = plan.steps.length - creates;
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {plan.steps.length} item{plan.steps.length === 1 ? '' : 's'} to {targetLabel}: {creates} to create, {updates} to update.
      </Text>
      <Title order={3} size="h5">
        Items, in the order they are copied
      </Title>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Copy plan">
        {plan.steps.map((s) => (
          <StepCard key={s.source.id} step={s} groupTitles={groupTitles} />
        ))}
      </Stack>
      <GroupsPlan groups={plan.groups} skipped={skippedGroups} onToggle={onToggleGroup} />
      {plan.blocked.length ? (
        <Alert color="orange" variant="light" title={`${plan.blocked.length} cannot be copied`}>
          <List size="sm">
            {plan.blocked.map((b) => (
              <List.Item key={b.id}>
                <strong>{b.title}</strong>: {b.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
    </Stack>
  );
}
