/**
 * A copy's progress, kept in the browser (localStorage) while it runs, so that a copy cut short by a
 * closed tab or a lost connection can be resumed: the approved plan, and for each item the id of its
 * copy in the target and the last step done. One record per source and target (portal and
 * organization); tokens are never stored, so resuming signs in to the target again unless the
 * console holds a session for it.
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

export function saveCopy(source: PortalConnection, target: PortalConnection, plan: CopyPlan, progress: CopyProgress): void {
  const key = copyKey(source, target);
  const record: StoredCopy = { key, source: withoutToken(source), target: withoutToken(target), plan: slim(plan), progress, savedAt: Date.now() };
  try {
    storage()?.setItem(key, JSON.stringify(record));
  } catch {
    // A full storage keeps the copy from being resumable, not from running.
  }
}

export function forgetCopy(key: string): void {
  storage()?.removeItem(key);
}

/** Unfinished copies from this portal and organization, newest first. */
export function unfinishedCopies(source: Pick<PortalConnection, 'portalUrl' | 'orgId'>): StoredCopy[] {
  const s = storage();
  if (!s) return [];
  const out: StoredCopy[] = [];
  const from = `${PREFIX}${place(source)}>`;
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(from) || runningHere.has(key)) continue;
    try {
      out.push(JSON.parse(s.getItem(key) ?? '') as StoredCopy);
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
    if (key?.startsWith(PREFIX) && !runningHere.has(key)) return true;
  }
  return false;
}

/** How far a stored copy got. */
export function doneCount(record: Pick<StoredCopy, 'progress'>): number {
  return Object.values(record.progress.items).filter((i) => i.step === 'done').length;
}
