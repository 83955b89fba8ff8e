/**
 * Giving groups to other members (Reassign Group), shared by the group page's Change owner and the
 * delete-member dialog's group rows; the mutation declares what it makes stale, as every one does.
 */
import { useMutation } from '@tanstack/react-query';
import { describeError, reassignGroup } from '../api/index.ts';
import { groupKeys } from '../api/queries/groups.ts';
import { userKeys } from '../api/queries/users.ts';
import type { InvalidationTarget } from './invalidation.ts';

/** One group to give to another member, and how it went. */
export interface GroupTransfer {
  groupId: string;
  /** For the result's wording. */
  title: string;
  targetUsername: string;
}
export type GroupTransferOutcome = GroupTransfer & ({ ok: true } | { ok: false; message: string });

/**
 * Groups given to other members (Reassign Group), one request each, in order: each answers for
 * itself, so one refused (another portal without the operation, a target who may not own it) leaves
 * the others done. Stale after: the groups, their member lists and the signed-in member's groups,
 * and whatever the caller adds (`alsoStale`: what a member about to be deleted still owns).
 */
export function useReassignGroups(alsoStale: readonly InvalidationTarget[] = []) {
  return useMutation({
    mutationFn: async (transfers: readonly GroupTransfer[]): Promise<GroupTransferOutcome[]> => {
      const outcomes: GroupTransferOutcome[] = [];
      for (const t of transfers) {
        try {
          await reassignGroup(t.groupId, t.targetUsername);
          outcomes.push({ ...t, ok: true });
        } catch (err) {
          outcomes.push({ ...t, ok: false, message: describeError(err) });
        }
      }
      return outcomes;
    },
    meta: { invalidates: [groupKeys.all, userKeys.self, ...alsoStale] },
  });
}
