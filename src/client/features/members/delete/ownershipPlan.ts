/**
 * Where a departing member's items go: one new owner for everything, which a folder or a single item
 * may override (an item's own choice wins over its folder's, its folder's over the default). Items
 * keep their folder's name at the new owner. The pre-check and the run are the transfer wizard's
 * (lib/transfer.ts), sent once per new owner and folder.
 */
import type { Item } from '../../../api/index.ts';
import type { PickedMember } from '../../../components/MemberPicker.tsx';
import { precheck, runTransfer, type CheckOutcome, type RunOutcome } from '../../../lib/transfer.ts';

export interface OwnershipPlan {
  /** The one-member choice: everything without a choice of its own goes here. */
  everything: PickedMember | null;
  /** Folder id → new owner of the items in it. */
  byFolder: Readonly<Record<string, PickedMember | null>>;
  /** Item id → new owner of that item. */
  byItem: Readonly<Record<string, PickedMember | null>>;
}

export const EMPTY_PLAN: OwnershipPlan = { everything: null, byFolder: {}, byItem: {} };

/** The member an item goes to under the plan, or null while nobody is chosen for it. */
export function newOwnerOf(item: Pick<Item, 'id' | 'ownerFolder'>, plan: OwnershipPlan): PickedMember | null {
  return plan.byItem[item.id] ?? (item.ownerFolder ? plan.byFolder[item.ownerFolder] : undefined) ?? plan.everything;
}

/** One request's worth of the plan: items going to one member, into one folder. */
export interface PlanBatch {
  target: string;
  /** The folder's title at the new owner ("/" for the root). */
  folder: string;
  ids: string[];
}

/** The plan as batches (by new owner, then folder), and the items nobody is chosen for yet. */
export function batchesOf(items: readonly Item[], folderTitles: ReadonlyMap<string, string>, plan: OwnershipPlan) {
  const batches = new Map<string, PlanBatch>();
  const unassigned: string[] = [];
  for (const item of items) {
    const owner = newOwnerOf(item, plan);
    if (!owner) {
      unassigned.push(item.id);
      continue;
    }
    const folder = (item.ownerFolder && folderTitles.get(item.ownerFolder)) || '/';
    const key = `${owner.username}\n${folder}`;
    const batch = batches.get(key) ?? { target: owner.username, folder, ids: [] };
    batch.ids.push(item.id);
    batches.set(key, batch);
  }
  return { batches: [...batches.values()], unassigned };
}

/** The transfer wizard's pre-check for each new owner of the plan (one owner's items in one check). */
export async function checkPlan(from: string, batches: readonly PlanBatch[], onProgress: (done: number) => void): Promise<Map<string, CheckOutcome[]>> {
  const byTarget = new Map<string, string[]>();
  for (const b of batches) byTarget.set(b.target, [...(byTarget.get(b.target) ?? []), ...b.ids]);
  const answers = new Map<string, CheckOutcome[]>();
  let before = 0;
  for (const [target, ids] of byTarget) {
    answers.set(target, await precheck(from, ids, target, (done) => onProgress(before + done)));
    before += ids.length;
  }
  return answers;
}

/** The transfers of the plan's batches, limited to the ids the pre-check let through. */
export async function runPlan(from: string, batches: readonly PlanBatch[], allowed: ReadonlySet<string>, onProgress: (done: number) => void) {
  const outcomes: (RunOutcome & { target: string })[] = [];
  for (const b of batches) {
    const ids = b.ids.filter((id) => allowed.has(id));
    if (!ids.length) continue;
    const before = outcomes.length;
    const answered = await runTransfer(from, ids, b.target, b.folder, (done) => onProgress(before + done));
    outcomes.push(...answered.map((o) => ({ ...o, target: b.target })));
  }
  return outcomes;
}
