/**
 * Transfer content: a member's items (all, or a selection passed as `items=`) to another member,
 * in four steps — pick the items, pick the new owner and folder, a pre-check that names every
 * refused item with the reason and the fix, then the run with progress, a result per item,
 * "Retry failed" and the side effects (scheduled tasks paused, sharing narrowed).
 */
import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, ScrollArea, Stack, Stepper, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { Item } from '../../api/index.ts';
import { BulkProgress, BulkResultTable } from '../../components/Bulk.tsx';
import { MemberPicker, type PickedMember } from '../../components/MemberPicker.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount, formatDate, plural } from '../../lib/format.ts';
import { holds } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CheckResults } from '../../components/CheckResults.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import { precheck, type CheckOutcome, type RunOutcome } from '../../lib/transfer.ts';
import { ownedItemsQuery } from '../../api/queries/items.ts';
import { useTransferItems } from './mutations.ts';

interface Progress<T> {
  running: boolean;
  done: number;
  total: number;
  outcomes?: T[];
}

export default function TransferPage() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const from = (params.get('from') ?? '').trim();
  const preset = useMemo(
    () =>
      (params.get('items') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    [params],
  );
  const mayTransfer =
    holds(user, 'portal:admin:reassignItems') || (from.toLowerCase() === user.username.toLowerCase() && holds(user, 'portal:user:reassignItems'));

  const header = (
    <PageHeader title="Transfer content" description={from ? `Give ${from}'s items to another member.` : 'Give a member’s items to another member.'} />
  );
  if (!from) {
    return (
      <>
        {header}
        <EmptyPanel title="Choose whose content to transfer" description="Open Transfer content from a member on the Members page.">
          <Button component={Link} to="/members" variant="light">
            Go to Members
          </Button>
        </EmptyPanel>
      </>
    );
  }
  if (!mayTransfer) {
    return (
      <>
        {header}
        <Alert color="red" variant="light" title="Not allowed" role="alert">
          To transfer another member’s content you need the privilege “Transfer any content” (portal:admin:reassignItems); to transfer your own, “Transfer own
          content to other members” (portal:user:reassignItems).
        </Alert>
      </>
    );
  }
  return (
    <>
      {header}
      <TransferWizard from={from} preset={preset} />
    </>
  );
}

function TransferWizard({ from, preset }: { from: string; preset: string[] }) {
  const back = useBackTo();
  const user = useCurrentUser();
  const transfer = useTransferItems(from);
  const owned = useQuery(ownedItemsQuery(from));
  const [step, setStep] = useState(0);
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [targetMember, setTargetMember] = useState<PickedMember | null>(null);
  const target = targetMember?.username ?? null;
  const [folder, setFolder] = useState('/');
  const [check, setCheck] = useState<Progress<CheckOutcome>>({ running: false, done: 0, total: 0 });
  const [run, setRun] = useState<Progress<RunOutcome>>({ running: false, done: 0, total: 0 });
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
    if (!target) return;
    goTo(2);
    setTitles(new Map(selectedIds.map((id) => [id, titleOf(id)])));
    setCheck({ running: true, done: 0, total: selectedIds.length });
    const outcomes = await precheck(from, selectedIds, target, (done) => setCheck((c) => ({ ...c, done })));
    setCheck({ running: false, done: outcomes.length, total: outcomes.length, outcomes });
  }

  async function startRun(ids: string[], previous: RunOutcome[] = []) {
    if (!target) return;
    goTo(3);
    setRun({ running: true, done: 0, total: ids.length, outcomes: previous });
    const outcomes = await transfer.mutateAsync({ ids, target, folder: folder || '/', onProgress: (done) => setRun((r) => ({ ...r, done })) });
    const merged = new Map(previous.map((o) => [o.itemId, o]));
    for (const o of outcomes) merged.set(o.itemId, o);
    setRun({ running: false, done: ids.length, total: ids.length, outcomes: [...merged.values()] });
  }

  if (owned.isPending) return <LoadingState label={`Loading ${from}'s items…`} />;
  if (owned.isError) return <ErrorState error={owned.error} title="The items could not be loaded" onRetry={() => owned.refetch()} />;

  const transferable = (check.outcomes ?? []).filter((o) => o.status === 'ok').map((o) => o.itemId);
  const transferableItems = transferable.map((id) => byId.get(id)).filter((i): i is Item => !!i);
  const failed = (run.outcomes ?? []).filter((o) => !o.ok).map((o) => o.itemId);

  return (
    <Stepper active={step} onStepClick={(s) => !check.running && !run.running && s < step && step < 3 && goTo(s)} size="sm" mb="md">
      <Stepper.Step label="Items" description={`${formatCount(step >= 2 ? titles.size : selectedIds.length)} selected`}>
        {stepHeading('Items to transfer')}
        <ItemPicker
          items={items}
          extra={extra}
          selected={selected}
          onChange={(next) => setPicked(next)}
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

      <Stepper.Step label="New owner" description={target ?? 'Member and folder'}>
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
            <TextInput
              label="Folder"
              description="“/” is the new owner's root folder. A folder that does not exist is created."
              value={folder}
              onChange={(e) => setFolder(e.currentTarget.value)}
              maxLength={255}
            />
          </Stack>
        </Paper>
        <Group justify="space-between" mt="md">
          <Button variant="default" onClick={() => goTo(0)}>
            Back
          </Button>
          <Button onClick={startCheck} disabled={!target}>
            Check {selectedIds.length} item{selectedIds.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Stepper.Step>

      <Stepper.Step label="Pre-check" description={check.outcomes ? `${transferable.length} transferable` : 'Who may receive what'}>
        {stepHeading('Pre-check')}
        {check.running || !check.outcomes ? (
          <BulkProgress label="Checking items" done={check.done} total={check.total} />
        ) : (
          <Stack gap="md">
            <CheckResults outcomes={check.outcomes} titleOf={titleOf} target={target ?? ''} />
            {/* What the transfer breaks: items using these whose viewers would lose them if the new owner may not keep the sharing. */}
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

      <Stepper.Step label="Transfer" description={run.outcomes && !run.running ? `${(run.outcomes ?? []).length - failed.length} transferred` : 'Run'}>
        {stepHeading('Transfer')}
        {run.running ? <BulkProgress label="Transferring items" done={run.done} total={run.total} /> : null}
        {!run.running && run.outcomes ? (
          <Stack gap="md">
            <TransferSummary outcomes={run.outcomes} target={target ?? ''} folder={folder || '/'} />
            <BulkResultTable
              label="Transfer results"
              nameHeader="Item"
              successLabel="Transferred"
              failureLabel="Failed"
              rows={run.outcomes.map((o) => ({
                key: o.itemId,
                name: titleOf(o.itemId),
                ok: o.ok,
                detail: o.ok ? sideEffects(o) : o.message,
              }))}
            />
            <Group justify="space-between">
              <Button component={Link} to={back.to} variant="default">
                Back to {back.label}
              </Button>
              <Button color="orange" onClick={() => startRun(failed, run.outcomes)} disabled={!failed.length}>
                Retry failed ({failed.length})
              </Button>
            </Group>
          </Stack>
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

function sideEffects(o: RunOutcome): string {
  const notes: string[] = [];
  if (o.tasksDeactivated) notes.push(`${plural(o.tasksDeactivated, 'scheduled task')} paused`);
  if (o.unsharedFrom.length) notes.push(`no longer shared with ${o.unsharedFrom.join(' and ')}`);
  return notes.join('; ');
}

function TransferSummary({ outcomes, target, folder }: { outcomes: RunOutcome[]; target: string; folder: string }) {
  const moved = outcomes.filter((o) => o.ok);
  const tasks = moved.reduce((n, o) => n + o.tasksDeactivated, 0);
  const narrowed = moved.filter((o) => o.unsharedFrom.length).length;
  return (
    <Alert color={moved.length === outcomes.length ? 'green' : 'yellow'} variant="light" title="Summary" role="status">
      <Stack gap={4}>
        <Text size="sm">
          {moved.length} of {plural(outcomes.length, 'item')} now {moved.length === 1 ? 'belongs' : 'belong'} to {target}, in{' '}
          {folder === '/' ? 'the root folder' : `the folder “${folder}”`}.
        </Text>
        <Text size="sm" data-testid="tasks-deactivated">
          Scheduled tasks paused: {tasks}
          {tasks ? ` — ${target} must review and resume them.` : ''}
        </Text>
        {narrowed ? (
          <Text size="sm">
            {plural(narrowed, 'item')} shared more widely than {target} may share {narrowed === 1 ? 'was' : 'were'} narrowed.
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

function ItemPicker({
  items,
  extra,
  selected,
  onChange,
  total,
  totalEstimated,
  from,
}: {
  items: Item[];
  extra: string[];
  selected: Set<string>;
  onChange: (s: Set<string>) => void;
  total: number;
  /** The portal estimated the total (the listing stopped before the last item). */
  totalEstimated?: boolean;
  from: string;
}) {
  const all = [...extra, ...items.map((i) => i.id)];
  const count = all.filter((id) => selected.has(id)).length;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  if (!all.length) return <EmptyPanel title={`${from} owns no items`} description="There is nothing to transfer." />;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" aria-live="polite" data-testid="transfer-selection">
          {formatCount(count)} of {formatCount(all.length)} item{all.length === 1 ? '' : 's'} selected
          {total > items.length ? ` (the first ${formatCount(items.length)} of ${formatCount(total, totalEstimated)} are listed)` : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={() => onChange(new Set(all))}>
            Select all
          </Button>
          <Button size="xs" variant="subtle" onClick={() => onChange(new Set())}>
            Select none
          </Button>
        </Group>
      </Group>
      <ScrollArea.Autosize mah={440} type="auto">
        <Table aria-label={`Items of ${from}`} striped stickyHeader verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all items"
                  checked={count === all.length}
                  indeterminate={count > 0 && count < all.length}
                  onChange={(e) => onChange(e.currentTarget.checked ? new Set(all) : new Set())}
                />
              </Table.Th>
              <Table.Th>Title</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Shared</Table.Th>
              <Table.Th>Modified</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {extra.map((id) => (
              <Table.Tr key={id}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${id}`} checked={selected.has(id)} onChange={(e) => toggle(id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td colSpan={4}>
                  <Text size="sm" ff="monospace">
                    {id}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Not among {from}'s items — the pre-check will say why.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${item.title}`} checked={selected.has(item.id)} onChange={(e) => toggle(item.id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/content/items/${item.id}`} size="sm" fw={600}>
                    {item.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{item.type}</Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray" tt="none" size="sm">
                    {item.access}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(item.modified)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
