/** Changing groups and their members; each mutation invalidates what it changes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '../../../shared/limits.ts';
import {
  addGroupUsers,
  createGroup,
  deleteGroup,
  removeGroupUsers,
  setGroupProtected,
  updateGroup,
  updateGroupUsers,
  type GroupFieldsInput,
} from '../../api/index.ts';
import { chunk, runBulk } from '../../lib/bulk.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Names per addUsers / removeUsers request: the service refuses more (ORG_3100). */
export const BATCH_SIZE = LIMITS.usersPerAddToGroupRequest;

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: GroupFieldsInput & { title: string }) => createGroup(fields),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.groups }),
        // community/self lists the member's groups.
        queryClient.invalidateQueries({ queryKey: queryKeys.self }),
      ]),
  });
}

export function useUpdateGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: GroupFieldsInput) => updateGroup(groupId, fields),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.groups }),
  });
}

export function useSetGroupProtected(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: boolean) => setGroupProtected(groupId, value),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.group(groupId) }),
  });
}

export function useDeleteGroup(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) => deleteGroup(groupId),
    onSuccess: (_result, groupId) =>
      Promise.all([
        // The deleted group itself is not read again.
        queryClient.invalidateQueries({ queryKey: queryKeys.groups, predicate: (q) => !(q.queryKey[1] === 'detail' && q.queryKey[2] === groupId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.self }),
        // The portal drops a deleted group from the new-member defaults.
        queryClient.invalidateQueries({ queryKey: queryKeys.userDefaultSettings(orgId) }),
      ]),
  });
}

export type AddAs = 'members' | 'managers';

export interface AddUsersInput {
  names: readonly string[];
  as: AddAs;
  onProgress?: (batchesDone: number, batches: number) => void;
}

/**
 * addUsers in batches of 25, one after another. Every batch has its own outcome: the names the
 * service did not add (with reasons), or the error that stopped the whole batch.
 */
export function useAddGroupUsers(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ names, as, onProgress }: AddUsersInput) =>
      runBulk(chunk(names, BATCH_SIZE), (batch) => addGroupUsers(groupId, as === 'managers' ? { admins: batch } : { users: batch }), { onProgress }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.group(groupId) }), queryClient.invalidateQueries({ queryKey: queryKeys.groups })]),
  });
}

/**
 * removeUsers in batches of 25. `notRemoved`: the names the service kept (the owner, managers a
 * manager may not remove) and those of a batch that failed; `error`: why a batch failed.
 */
export function useRemoveGroupUsers(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (names: readonly string[]): Promise<{ notRemoved: string[]; error?: unknown }> => {
      const outcomes = await runBulk(chunk(names, BATCH_SIZE), (batch) => removeGroupUsers(groupId, batch));
      const failed = outcomes.find((o) => !o.ok);
      return {
        notRemoved: outcomes.flatMap((o) => (o.ok ? o.value.notRemoved : o.item)),
        error: failed && !failed.ok ? failed.error : undefined,
      };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.groups }),
  });
}

/** updateUsers: make members managers, or managers plain members. */
export function useChangeMemberType(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ names, to }: { names: readonly string[]; to: 'admin' | 'member' }) =>
      updateGroupUsers(groupId, to === 'admin' ? { admins: names } : { users: names }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.group(groupId) }),
  });
}
