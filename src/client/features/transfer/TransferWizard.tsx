/**
 * The transfer wizard: a member's items (all, or a selection passed as `items=`) to another member,
 * in four steps — pick the items, pick the new owner and folder, a pre-check that names every
 * refused item with the reason and the fix, then the run with progress, a result per item,
 * "Retry failed" and the side effects (scheduled tasks paused, sharing narrowed). Every step already
 * reached can be opened again from the stepper, the result step included, so a fix (another folder,
 * a group membership) is followed by a check and a retry without starting over.
 */
import { Button, Group, Paper, Stack, Stepper, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { Item } from '../../api/index.ts';
import { BulkProgress } from '../../components/Bulk.tsx';
import { MemberPicker, type PickedMember } from '../../components/MemberPicker.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { targetFolderOf } from '../../../shared/folderTitle.ts';
import { formatCount } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CheckResults } from '../../components/CheckResults.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import { precheck, type CheckOutcome, type RunOutcome } from '../../lib/transfer.ts';
import { FolderField } from './FolderField.tsx';
import { TransferItemList } from './TransferItemList.tsx';
import { TransferResults } from './TransferResult.tsx';
import { ownedItemsQuery } from '../../api/queries/items.ts';
import { useTransferItems } from './mutations.ts';

interface Progress<T> {
  running: boolean;
  done: number;
  total: number;
  outcomes?: T[];
}

export function TransferWizard({ from, preset }: { from: string; preset: string[] }) {
  const back = useBackTo();
  const user = useCurrentUser();
  const transfer = useTransferItems(from);
  const owned = useQuery(ownedItemsQuery(from));
  const [step, setStep] = useState(0);
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [targetMember, setTargetMember] = useState<PickedMember | null>(null);
  const target = targetMember?.username ?? null;
  const [folderTyped, setFolderTyped] = useState('/');
  // Checked on the field by the service's rule: a run never fails on the folder's name.
  const folder = targetFolderOf(folderTyped);
  const [check, setCheck] = useState<Progress<CheckOutcome>>({ running: false, done: 0, total: 0 });
  const [run, setRun] = useState<Progress<RunOutcome> & { folder?: string }>({ running: false, done: 0, total: 0 });
  const busy = check.running || run.running;
  // The button that moves to another step (or starts a run) goes with its step, or is disabled while
  // the run lasts: the step's heading takes focus instead of the page's body.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest) headingRef.current?.focus();
  }, [focusRequest]);
  const goTo = (s: number) => {
    setStep(s);
    setFocusRequest((n) => n + 1);
  };
  // Any step already reached: back to change something, and forward again to the last check or run.
  const reachable = (s: number) => !busy && s !== step && (s < step || (s === 2 && !!check.outcomes) || (s === 3 && !!run.outcomes));
  const stepHeading = (text: string) => (
    <Title order={2} size="h4" mb="sm" ref={headingRef} tabIndex={-1}>
      {text}
    </Title>
  );

  const items = useMemo(() => owned.data?.items ?? [], [owned.data]);
  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  // Ids passed in the address that the list does not hold are kept: the pre-check says what they are.
  const extra = preset.filter((id) => !byId.has(id));
  const selected = picked ?? new Set(preset.length ? preset : items.map((i) => i.id));
  const selectedIds = [...extra.filter((id) => selected.has(id)), ...items.filter((i) => selected.has(i.id)).map((i) => i.id)];
  // Titles as they were when the check started: moved items leave the owner's list afterwards.
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(new Map());
  const titleOf = (id: string) => titles.get(id) ?? byId.get(id)?.title ?? id;

  async function startCheck() {
    if (!target || folder.problem) return;
    goTo(2);
    setTitles(new Map(selectedIds.map((id) => [id, titleOf(id)])));
    setCheck({ running: true, done: 0, total: selectedIds.length });
    const outcomes = await precheck(from, selectedIds, target, (done) => setCheck((c) => ({ ...c, done })));
    setCheck({ running: false, done: outcomes.length, total: outcomes.length, outcomes });
  }

  async function startRun(ids: string[], previous: RunOutcome[] = []) {
    if (!target || folder.problem) return;
    goTo(3);
    setRun({ running: true, done: 0, total: ids.length, outcomes: previous, folder: folder.folder });
    const outcomes = await transfer.mutateAsync({ ids, target, folder: folder.folder, onProgress: (done) => setRun((r) => ({ ...r, done })) });
    const merged = new Map(previous.map((o) => [o.itemId, o]));
    for (const o of outcomes) merged.set(o.itemId, o);
    setRun({ running: false, done: ids.length, total: ids.length, outcomes: [...merged.values()], folder: folder.folder });
  }

  if (owned.isPending) return <LoadingState label={`Loading ${from}'s items…`} />;
  if (owned.isError) return <ErrorState error={owned.error} title="The items could not be loaded" onRetry={() => owned.refetch()} />;

  const transferable = (check.outcomes ?? []).filter((o) => o.status === 'ok').map((o) => o.itemId);
  const transferableItems = transferable.map((id) => byId.get(id)).filter((i): i is Item => !!i);
  const failed = (run.outcomes ?? []).filter((o) => !o.ok).map((o) => o.itemId);

  return (
    <Stepper active={step} onStepClick={(s) => reachable(s) && goTo(s)} size="sm" mb="md">
      <Stepper.Step label="Items" description={`${formatCount(step >= 2 ? titles.size : selectedIds.length)} selected`} allowStepSelect={reachable(0)}>
        {stepHeading('Items to transfer')}
        <TransferItemList
          items={items}
          extra={extra}
          selected={selected}
          onChange={(next) => setPicked(next)}
          chosenFirst={preset}
          total={owned.data?.total ?? items.length}
          totalEstimated={owned.data?.totalEstimated}
          from={from}
        />
        <Group justify="flex-end" mt="md">
          <Button onClick={() => goTo(1)} disabled={!selectedIds.length}>
            Next: new owner
          </Button>
        </Group>
      </Stepper.Step>

      <Stepper.Step label="New owner" description={target ?? 'Member and folder'} allowStepSelect={reachable(1)}>
        {stepHeading('New owner and folder')}
        <Paper withBorder p="md" radius="md">
          <Stack gap="md" maw={520}>
            <MemberPicker
              orgId={user.orgId}
              label="New owner"
              description="A member of your organization who may own content."
              value={targetMember}
              onChange={setTargetMember}
              exclude={[from]}
              required
            />
            <FolderField value={folderTyped} onChange={setFolderTyped} target={folder} />
          </Stack>
        </Paper>
        <Group justify="space-between" mt="md">
          <Button variant="default" onClick={() => goTo(0)}>
            Back
          </Button>
          <Button onClick={startCheck} disabled={!target || !!folder.problem}>
            Check {selectedIds.length} item{selectedIds.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Stepper.Step>

      <Stepper.Step
        label="Pre-check"
        description={check.outcomes ? `${transferable.length} transferable` : 'Who may receive what'}
        allowStepSelect={reachable(2)}
      >
        {stepHeading('Pre-check')}
        {check.running || !check.outcomes ? (
          <BulkProgress label="Checking items" done={check.done} total={check.total} />
        ) : (
          <Stack gap="md">
            <CheckResults outcomes={check.outcomes} titleOf={titleOf} target={target ?? ''} />
            {/* What the transfer breaks (items using these) and what the moved items use that the new owner cannot see. */}
            {transferableItems.length && target ? <ImpactCheckSlot items={transferableItems} change={{ kind: 'transfer', newOwner: target }} /> : null}
          </Stack>
        )}
        <Group justify="space-between" mt="md">
          <Button variant="default" onClick={() => goTo(1)} disabled={check.running}>
            Back
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={startCheck} disabled={check.running}>
              Check again
            </Button>
            <Button onClick={() => startRun(transferable)} disabled={check.running || !transferable.length}>
              Transfer {transferable.length} item{transferable.length === 1 ? '' : 's'}
            </Button>
          </Group>
        </Group>
      </Stepper.Step>

      <Stepper.Step
        label="Transfer"
        description={run.outcomes && !run.running ? `${(run.outcomes ?? []).length - failed.length} transferred` : 'Run'}
        allowStepSelect={reachable(3)}
      >
        {stepHeading('Transfer')}
        {run.running ? <BulkProgress label="Transferring items" done={run.done} total={run.total} /> : null}
        {!run.running && run.outcomes ? (
          <TransferResults
            outcomes={run.outcomes}
            target={target ?? ''}
            folder={run.folder ?? '/'}
            titleOf={titleOf}
            back={back}
            onRetry={failed.length ? () => startRun(failed, run.outcomes) : undefined}
            onChange={() => goTo(1)}
          />
        ) : null}
      </Stepper.Step>
    </Stepper>
  );
}

/**
 * Where the wizard returns to: a transfer started from Content (its selection bar or an item's
 * "Change owner") runs under /content/transfer and stays in Content; one started from a member
 * runs under /members/transfer.
 */
function useBackTo(): { to: string; label: string } {
  const { pathname } = useLocation();
  return pathname.startsWith('/content') ? { to: '/content', label: 'Content' } : { to: '/members', label: 'Members' };
}
