/**
 * Where an unfinished bulk action is kept, so that it survives a closed tab: in localStorage (kept
 * after the tab, shared by the browser's tabs), one per organization and member. A server job keeps
 * only its id (the portal has the rest); a run from the browser keeps the members still to do and
 * each outcome so far, written after every slice, so reopening resumes where it stopped and never
 * sends a member twice (a slice in flight when the tab closed is sent again: every bulk operation
 * the console sends from the browser leaves a member as it is when it is already so).
 */
import type { BulkAction, BulkKind } from './plan.ts';
import type { MemberOutcome } from './run.ts';

export type SavedRun =
  | { mode: 'server'; kind: BulkKind; jobId: string; total: number }
  | { mode: 'browser'; kind: BulkKind; action: BulkAction; pending: string[]; outcomes: [string, MemberOutcome][]; total: number; paused: boolean };

const keyOf = (orgId: string, username: string) => `portal-console.bulkRun.${orgId}.${username}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function loadRun(orgId: string, username: string): SavedRun | null {
  const text = storage()?.getItem(keyOf(orgId, username));
  if (!text) return null;
  try {
    return JSON.parse(text) as SavedRun;
  } catch {
    return null;
  }
}

export function saveRun(orgId: string, username: string, run: SavedRun): void {
  try {
    storage()?.setItem(keyOf(orgId, username), JSON.stringify(run));
  } catch {
    // Storage full or refused: the run goes on; only resuming after a closed tab is lost.
  }
}

export function clearRun(orgId: string, username: string): void {
  storage()?.removeItem(keyOf(orgId, username));
  window.dispatchEvent(new Event(SAVED_RUN_CHANGED));
}

/** Fired when a run is saved or cleared, so the Members page's banner reads it again. */
export const SAVED_RUN_CHANGED = 'portal-console-bulk-run';
export function announceRun(): void {
  window.dispatchEvent(new Event(SAVED_RUN_CHANGED));
}
