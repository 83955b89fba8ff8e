/**
 * A copy's progress, kept in the browser (localStorage) while it runs, so that a copy cut short by a
 * closed tab or a lost connection can be resumed: the approved plan, and for each item the id of its
 * copy in the target and the last step done. One record per source and target (portal and
 * organization); tokens are never stored, so resuming signs in to the target again unless the
 * console holds a session for it.
 *
 * The plan is written once; each item's progress is its own small entry (the record's key, then
 * `i:<source id>`), and the groups' and relationships' progress another (then `m`). Rewriting the whole record after
 * each step made every step cost as much as the plan was long: 1 ms an item at 20 items, 7 ms at
 * 200, 49 ms at 1,000, in Node alone (bench/copy.bench.ts keeps progress as the browser does).
 */
import type { CopyPlan } from './plan.ts';
import type { PortalConnection } from './portal.ts';

export interface ItemProgress {
  targetId: string;
  owner: string;
  /** Created by this copy (undo and rollback delete it), or an existing copy updated. */
  created: boolean;
  /** written: the item exists in the target with its fields and data; done: resources and sharing too. */
  step: 'written' | 'done';
}

export interface CopyProgress {
  /** By source item id (lower case). */
  items: Record<string, ItemProgress>;
  /** Source group id → the target group, and whether this copy created it. */
  groups: Record<string, { targetId: string; created: boolean }>;
  relationshipsDone: boolean;
}

export const emptyProgress = (): CopyProgress => ({ items: {}, groups: {}, relationshipsDone: false });

export type StoredConnection = Omit<PortalConnection, 'token'>;

export interface StoredCopy {
  key: string;
  source: StoredConnection;
  target: StoredConnection;
  plan: CopyPlan;
  progress: CopyProgress;
  savedAt: number;
}

const PREFIX = 'console.copy.v1:';

/** Copies running in this tab now: kept, but not unfinished (Content offers no resume for them). */
const runningHere = new Set<string>();

export function markRunning(key: string, running: boolean): void {
  if (running) runningHere.add(key);
  else runningHere.delete(key);
}

const place = (c: Pick<PortalConnection, 'portalUrl' | 'orgId'>) => `${c.portalUrl.toLowerCase()}#${c.orgId}`;

export const copyKey = (source: PortalConnection | StoredConnection, target: PortalConnection | StoredConnection) =>
  `${PREFIX}${place(source)}>${place(target)}`;

const withoutToken = ({ portalUrl, username, orgId, label }: PortalConnection | StoredConnection): StoredConnection => ({ portalUrl, username, orgId, label });

/** The plan as kept: differences (whole data texts, possibly large) are not needed to carry it out. */
const slim = (plan: CopyPlan): CopyPlan => ({ ...plan, steps: plan.steps.map((s) => ({ ...s, differences: [] })) });

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** Progress entries follow their record's key after a line break, which no portal address or organization id holds. */
const SUB = '\n';
const itemKey = (key: string, sourceId: string) => `${key}${SUB}i:${sourceId.toLowerCase()}`;
const metaKey = (key: string) => `${key}${SUB}m`;

function put(s: Storage | undefined, key: string, value: unknown): void {
  try {
    s?.setItem(key, JSON.stringify(value));
  } catch {
    // A full storage keeps the copy from being resumable, not from running.
  }
}

/** Keeps the progress: one item's entry when `changed` names it, else the groups' and every item's. */
export function saveProgress(key: string, plan: CopyPlan, progress: CopyProgress, changed?: string): void {
  const s = storage();
  if (changed !== undefined) {
    const entry = progress.items[changed.toLowerCase()];
    if (entry) put(s, itemKey(key, changed), entry);
    else s?.removeItem(itemKey(key, changed));
    return;
  }
  put(s, metaKey(key), { groups: progress.groups, relationshipsDone: progress.relationshipsDone });
  for (const step of plan.steps) saveProgress(key, plan, progress, step.source.id);
}

/** Keeps the plan and its progress so far (written once as a copy starts). */
export function saveCopy(source: PortalConnection, target: PortalConnection, plan: CopyPlan, progress: CopyProgress): void {
  const key = copyKey(source, target);
  const record: Omit<StoredCopy, 'progress'> = { key, source: withoutToken(source), target: withoutToken(target), plan: slim(plan), savedAt: Date.now() };
  put(storage(), key, record);
  saveProgress(key, plan, progress);
}

/** Starts keeping a copy (its plan and progress so far): what applyPlan's `onSave` is then given. */
export function keepCopy(source: PortalConnection, target: PortalConnection, plan: CopyPlan, progress: CopyProgress) {
  saveCopy(source, target, plan, progress);
  const key = copyKey(source, target);
  return (p: CopyProgress, changedItem?: string) => saveProgress(key, plan, p, changedItem);
}

/** The progress kept for a stored plan. */
function readProgress(s: Storage, key: string, plan: CopyPlan): CopyProgress {
  const meta = JSON.parse(s.getItem(metaKey(key)) ?? 'null') as Omit<CopyProgress, 'items'> | null;
  const progress: CopyProgress = { ...emptyProgress(), ...meta, items: {} };
  for (const step of plan.steps) {
    const entry = s.getItem(itemKey(key, step.source.id));
    if (entry) progress.items[step.source.id.toLowerCase()] = JSON.parse(entry) as ItemProgress;
  }
  return progress;
}

export function forgetCopy(key: string): void {
  const s = storage();
  if (!s) return;
  const keys: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k === key || k?.startsWith(`${key}${SUB}`)) keys.push(k);
  }
  for (const k of keys) s.removeItem(k);
}

/** A kept copy's record (not one of its progress entries). */
const isRecordKey = (key: string | null, prefix: string): key is string => !!key?.startsWith(prefix) && !key.includes(SUB);

/** Unfinished copies from this portal and organization, newest first. */
export function unfinishedCopies(source: Pick<PortalConnection, 'portalUrl' | 'orgId'>): StoredCopy[] {
  const s = storage();
  if (!s) return [];
  const out: StoredCopy[] = [];
  const from = `${PREFIX}${place(source)}>`;
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!isRecordKey(key, from) || runningHere.has(key)) continue;
    try {
      const record = JSON.parse(s.getItem(key) ?? '') as StoredCopy;
      // A record kept whole (before progress had entries of its own) carries its progress.
      out.push(record.progress ? record : { ...record, progress: readProgress(s, key, record.plan) });
    } catch {
      s.removeItem(key);
    }
  }
  return out.sort((a, b) => b.savedAt - a.savedAt);
}

/** Whether any copy is kept at all: cheap, so Content loads the resume offer only when there is one. */
export function anyUnfinishedCopy(): boolean {
  const s = storage();
  if (!s) return false;
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (isRecordKey(key, PREFIX) && !runningHere.has(key)) return true;
  }
  return false;
}

/** How far a stored copy got. */
export function doneCount(record: Pick<StoredCopy, 'progress'>): number {
  return Object.values(record.progress.items).filter((i) => i.step === 'done').length;
}
