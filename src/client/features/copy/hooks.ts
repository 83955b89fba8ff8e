/** The copy dialog's reads (what the selection needs, the plan) and changes (sign-in, apply, undo), through React Query. */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Item } from '../../api/index.ts';
import { applyPlan, CopyFailed, undoCopy, type StepState } from './apply.ts';
import { signInForCopy } from './connections.ts';
import { planCopy, proposeNeeds, type CopyPlan } from './plan.ts';
import type { PortalConnection } from './portal.ts';
import { copyKey, emptyProgress, forgetCopy, keepCopy, markRunning, type CopyProgress } from './progress.ts';

const ids = (items: readonly Item[]) => items.map((i) => i.id).sort();

export function useNeeds(source: PortalConnection, items: readonly Item[]) {
  return useQuery({
    queryKey: ['copy', 'needs', source, ids(items)],
    queryFn: () => proposeNeeds(source, items),
    staleTime: 0,
  });
}

/** The plan is read afresh each time it is shown: the target may have changed since. */
export function usePlan(source: PortalConnection, target: PortalConnection, items: readonly Item[]) {
  return useQuery({
    queryKey: ['copy', 'plan', source, target, ids(items)],
    queryFn: () => planCopy(source, target, items),
    staleTime: 0,
    gcTime: 0,
  });
}

export function useSignInForCopy() {
  return useMutation({ mutationFn: (v: { portalUrl: string; username: string; password: string }) => signInForCopy(v.portalUrl, v.username, v.password) });
}

/**
 * Runs the plan, keeping its progress in the browser as it goes (progress.ts) so that a closed tab
 * or a lost connection can be resumed from where it stopped; `resumeFrom` is such a kept progress.
 * A copy that finished, or failed with everything it made removed again, is forgotten.
 */
export function useApplyCopy(
  source: PortalConnection,
  target: PortalConnection,
  onProgress: (sourceId: string, state: StepState) => void,
  resumeFrom?: CopyProgress,
) {
  return useMutation({
    mutationFn: async (plan: CopyPlan) => {
      const progress: CopyProgress = resumeFrom ? structuredClone(resumeFrom) : emptyProgress();
      const key = copyKey(source, target);
      markRunning(key, true);
      const onSave = keepCopy(source, target, plan, progress);
      try {
        const result = await applyPlan(plan, source, target, { onProgress, progress, onSave });
        forgetCopy(copyKey(source, target));
        return result;
      } catch (err) {
        if (err instanceof CopyFailed && !err.leftBehind.length) forgetCopy(copyKey(source, target));
        throw err;
      } finally {
        markRunning(key, false);
      }
    },
  });
}

export function useUndoCopy(target: PortalConnection) {
  return useMutation({
    mutationFn: async (result: { created: readonly string[]; createdGroups?: readonly string[] }) => {
      const left = await undoCopy(result, target);
      if (left.length) throw new Error(`${left.length} copied item${left.length === 1 ? '' : 's'} could not be deleted: ${left.join(', ')}`);
    },
  });
}
