/**
 * The plan before anything changes in the target: each item to create or update there, the ids
 * rewritten inside its data, what differs from the copy already there, and what cannot be copied.
 */
import { Alert, Badge, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import type { CopyPlan, Difference, PlanStep } from './plan.ts';

const FIELD: Record<Difference['field'], string> = { title: 'Title', snippet: 'Summary', tags: 'Tags', data: 'Data' };
const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s);

function StepCard({ step }: { step: PlanStep }) {
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

export function PlanView({ plan, targetLabel }: { plan: CopyPlan; targetLabel: string }) {
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
          <StepCard key={s.source.id} step={s} />
        ))}
      </Stack>
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
