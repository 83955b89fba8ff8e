/** The undo check's verdict on one event, its badge and the sentence that says why. */
import type { CheckedPlan } from '../lib/history/run.ts';
import { isReady } from '../lib/history/run.ts';

export type Verdict = 'ready' | 'changed' | 'gone' | 'blocked' | 'error';

export const verdictOf = (c: CheckedPlan): Verdict =>
  isReady(c) ? 'ready' : c.later?.kind === 'gone' ? 'gone' : c.error ? 'error' : c.blocked ? 'blocked' : 'changed';

export const VERDICT_BADGE: Record<Verdict, { label: string; color: string }> = {
  ready: { label: 'Ready', color: 'green' },
  changed: { label: 'Changed since', color: 'yellow' },
  gone: { label: 'Cannot be undone', color: 'red' },
  blocked: { label: 'Blocked', color: 'red' },
  error: { label: 'Cannot be undone', color: 'red' },
};

export function verdictText(c: CheckedPlan, verdict: Verdict): string {
  switch (verdict) {
    case 'ready':
      return 'Nothing changed it since.';
    case 'changed':
      return `Changed afterwards (${c.later?.description ?? 'a later change'}): left out so that later change is not overwritten. Tick it to undo anyway.`;
    case 'gone':
      return `The object is gone (${c.later?.description ?? 'deleted'}): nothing will be changed.`;
    case 'blocked':
      return 'The pre-check refused the transfer back: see the blockers below.';
    case 'error':
      return `${c.error ?? 'The check failed.'} Nothing will be changed.`;
  }
}
