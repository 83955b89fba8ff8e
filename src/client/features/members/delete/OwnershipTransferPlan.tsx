/**
 * Before a member is deleted, their items go to other members: one new owner for everything, or a
 * new owner per folder or item. The plan is checked with the transfer wizard's pre-check (blocked
 * items with their reasons, shared reasons said once), then the items that passed are transferred;
 * the delete itself stays the dialog's own button, which the portal allows once nothing is owned.
 */
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { getUserContent } from '../../../api/index.ts';
import { ownedItemsQuery } from '../../../api/queries/items.ts';
import { BulkProgress, BulkResultTable } from '../../../components/Bulk.tsx';
import { CheckResults } from '../../../components/CheckResults.tsx';
import { MemberPicker } from '../../../components/MemberPicker.tsx';
import { plural } from '../../../lib/format.ts';
import type { InvalidationTarget } from '../../../lib/invalidation.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { TRANSFER_INVALIDATES, type CheckOutcome, type RunOutcome } from '../../../lib/transfer.ts';
import { batchesOf, checkPlan, EMPTY_PLAN, runPlan, type OwnershipPlan, type PlanBatch } from './ownershipPlan.ts';
import { PlanRows } from './PlanRows.tsx';

/** A read a transfer makes stale, refreshed without holding the transfer's answer. */
const inBackground = (target: InvalidationTarget): InvalidationTarget =>
  Array.isArray(target) ? { queryKey: target, background: true } : { ...(target as Exclude<InvalidationTarget, QueryKey>), background: true };

type Phase =
  | { at: 'choose' }
  | { at: 'checking'; done: number; total: number }
  | { at: 'checked'; answers: Map<string, CheckOutcome[]> }
  | { at: 'running'; done: number; total: number }
  // Titles as they were before the run: moved items leave the member's list.
  | { at: 'done'; outcomes: (RunOutcome & { target: string })[]; titles: ReadonlyMap<string, string> };

export function OwnershipTransferPlan({ from }: { from: string }) {
  const user = useCurrentUser();
  const owned = useQuery(ownedItemsQuery(from));
  const folders = useQuery({ queryKey: ['memberOwnership', user.orgId, from, 'folders'], queryFn: () => getUserContent(from, undefined, { num: 1 }) });
  // Stale after the run: what any transfer makes stale, and what the preview above says the member owns.
  const transfer = useMutation({
    mutationFn: (input: { batches: PlanBatch[]; allowed: Set<string>; onProgress: (done: number) => void }) =>
      runPlan(from, input.batches, input.allowed, input.onProgress),
    // In the background: the results show as soon as the transfers answered, and what the member
    // still owns is re-read behind them (the alert below says so while it is read).
    meta: { invalidates: [...TRANSFER_INVALIDATES, ['memberOwnership', user.orgId, from]].map(inBackground) },
  });
  const [plan, setPlan] = useState<OwnershipPlan>(EMPTY_PLAN);
  const [phase, setPhase] = useState<Phase>({ at: 'choose' });
  const items = useMemo(() => owned.data?.items ?? [], [owned.data]);
  const folderList = folders.data?.folders ?? [];
  const folderTitles = new Map(folderList.map((f) => [f.id, f.title]));
  const { batches, unassigned } = batchesOf(items, folderTitles, plan);
  const titles = useMemo(() => new Map(items.map((i) => [i.id, i.title])), [items]);
  const titleOf = (id: string) => titles.get(id) ?? id;
  const edit = (next: OwnershipPlan) => {
    setPlan(next);
    setPhase({ at: 'choose' });
  };

  if (!items.length && phase.at !== 'done') return null;
  const planned = items.length - unassigned.length;

  async function check() {
    setPhase({ at: 'checking', done: 0, total: planned });
    const answers = await checkPlan(from, batches, (done) => setPhase({ at: 'checking', done, total: planned }));
    setPhase({ at: 'checked', answers });
  }

  const passed =
    phase.at === 'checked'
      ? new Set(
          [...phase.answers.values()]
            .flat()
            .filter((o) => o.status === 'ok')
            .map((o) => o.itemId),
        )
      : new Set<string>();

  async function run() {
    const before = titles;
    setPhase({ at: 'running', done: 0, total: passed.size });
    const outcomes = await transfer.mutateAsync({ batches, allowed: passed, onProgress: (done) => setPhase({ at: 'running', done, total: passed.size }) });
    setPhase({ at: 'done', outcomes, titles: before });
  }

  const busy = phase.at === 'checking' || phase.at === 'running';
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="transfer-plan-heading" data-testid="transfer-plan">
      <Stack gap="sm">
        <Title order={3} size="h5" id="transfer-plan-heading">
          Transfer {from}’s items first
        </Title>
        <MemberPicker
          orgId={user.orgId}
          label="New owner of everything"
          description="Every item goes here unless its folder or the item has a new owner of its own below."
          value={plan.everything}
          onChange={(m) => edit({ ...plan, everything: m })}
          exclude={[from]}
          disabled={busy}
        />
        <PlanRows orgId={user.orgId} from={from} items={items} folders={folderList} plan={plan} onChange={edit} disabled={busy} />
        {unassigned.length ? (
          <Text size="sm" c="dimmed" data-testid="plan-unassigned">
            {plural(unassigned.length, 'item')} without a new owner: choose one for everything, or for each.
          </Text>
        ) : null}
        {phase.at === 'checking' ? <BulkProgress label="Checking the plan" done={phase.done} total={phase.total} /> : null}
        {phase.at === 'checked'
          ? [...phase.answers].map(([target, outcomes]) => (
              <Stack key={target} gap={4} component="section" aria-label={`Pre-check for ${target}`}>
                <Text fw={600} size="sm">
                  To {target}
                </Text>
                <CheckResults outcomes={outcomes} titleOf={titleOf} target={target} />
              </Stack>
            ))
          : null}
        {phase.at === 'running' ? <BulkProgress label="Transferring items" done={phase.done} total={phase.total} /> : null}
        {phase.at === 'done' ? (
          <Stack gap="xs">
            <BulkResultTable
              label="Transfer results"
              nameHeader="Item"
              successLabel="Transferred"
              failureLabel="Failed"
              autoFocus
              rows={phase.outcomes.map((o) => ({
                key: o.itemId,
                name: phase.titles.get(o.itemId) ?? o.itemId,
                ok: o.ok,
                detail: o.ok ? `to ${o.target}` : o.message,
              }))}
            />
            <Alert color={owned.isFetching ? 'gray' : items.length ? 'yellow' : 'green'} variant="light" role="status">
              {owned.isFetching
                ? `Reading what ${from} still owns…`
                : items.length
                  ? `${plural(items.length, 'item')} still ${items.length === 1 ? 'belongs' : 'belong'} to ${from}: choose a new owner for ${items.length === 1 ? 'it' : 'them'} and check again.`
                  : `${from} owns no items any more: the delete can go ahead once nothing else blocks it.`}
            </Alert>
          </Stack>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={check} disabled={busy || !planned}>
            Check the plan ({plural(planned, 'item')})
          </Button>
          <Button onClick={run} disabled={phase.at !== 'checked' || !passed.size}>
            Transfer {plural(passed.size, 'item')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
