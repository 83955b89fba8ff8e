/** The transfers' pre-check (canReassignItems), one table per previous owner, as the transfer wizard shows it. */
import { Stack, Title } from '@mantine/core';
import type { CheckedPlan } from '../lib/history/run.ts';
import type { CheckOutcome } from '../lib/transfer.ts';
import { CheckResults } from './CheckResults.tsx';

export function UndoTransferChecks({ checked }: { checked: CheckedPlan[] }) {
  const byTarget = new Map<string, { outcomes: CheckOutcome[]; titles: Map<string, string> }>();
  for (const c of checked) {
    const step = c.plan.steps.find((s) => s.kind === 'reassign');
    if (!step || c.later?.kind === 'gone') continue;
    const entry = byTarget.get(step.to) ?? { outcomes: [], titles: new Map<string, string>() };
    entry.titles.set(step.itemId, step.title);
    entry.outcomes.push(
      c.blocked
        ? { itemId: step.itemId, status: 'blocked', blocked: c.blocked }
        : c.error
          ? { itemId: step.itemId, status: 'error', message: c.error }
          : { itemId: step.itemId, status: 'ok' },
    );
    byTarget.set(step.to, entry);
  }
  if (!byTarget.size) return null;
  return (
    <Stack gap="sm">
      {[...byTarget].map(([target, { outcomes, titles }]) => (
        <Stack gap={6} key={target}>
          <Title order={3} size="h5">
            Transfer pre-check: back to {target}
          </Title>
          <CheckResults outcomes={outcomes} titleOf={(id) => titles.get(id) ?? id} target={target} />
        </Stack>
      ))}
    </Stack>
  );
}
