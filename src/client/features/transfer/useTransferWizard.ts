/**
 * The state of the transfer wizard: the member's items and the ones ticked, the new owner and
 * folder, the step (its heading takes focus on each move), the pre-check and the run with their
 * progress, and which steps may be opened again.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { Item } from '../../api/index.ts';
import type { PickedMember } from '../../components/MemberPicker.tsx';
import { targetFolderOf } from '../../../shared/folderTitle.ts';
import { precheck, type CheckOutcome, type RunOutcome } from '../../lib/transfer.ts';
import { ownedItemsQuery } from '../../api/queries/items.ts';
import { useTransferItems } from './mutations.ts';

interface Progress<T> {
  running: boolean;
  done: number;
  total: number;
  outcomes?: T[];
}

export function useTransferWizard({ from, preset }: { from: string; preset: string[] }) {
  const back = useBackTo();
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

  const transferable = (check.outcomes ?? []).filter((o) => o.status === 'ok').map((o) => o.itemId);
  const transferableItems = transferable.map((id) => byId.get(id)).filter((i): i is Item => !!i);
  const failed = (run.outcomes ?? []).filter((o) => !o.ok).map((o) => o.itemId);

  return {
    back,
    owned,
    step,
    goTo,
    reachable,
    headingRef,
    items,
    extra,
    selected,
    setPicked,
    selectedIds,
    titles,
    titleOf,
    targetMember,
    setTargetMember,
    target,
    folderTyped,
    setFolderTyped,
    folder,
    check,
    run,
    startCheck,
    startRun,
    transferable,
    transferableItems,
    failed,
  };
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
