/** Changing groups and their members; each mutation declares what it makes stale. */
import { useMutation, type Query } from '@tanstack/react-query';
import {
  addUsersToGroup,
  createGroup,
  deleteGroup,
  removeUsersFromGroup,
  setGroupProtected,
  updateGroup,
  updateGroupUsers,
  USERS_PER_GROUP_REQUEST,
  type GroupFieldsInput,
} from '../../api/index.ts';
import { groupKeys } from '../../api/queries/groups.ts';
import { userKeys } from '../../api/queries/users.ts';
import { userDefaultSettingsKeys } from '../../api/queries/userDefaultSettings.ts';

/** Names per addUsers / removeUsers request (the API sends them so), for the dialog's wording and progress. */
export const BATCH_SIZE = USERS_PER_GROUP_REQUEST;

export function useCreateGroup() {
  return useMutation({
    mutationFn: (fields: GroupFieldsInput & { title: string }) => createGroup(fields),
    // community/self lists the member's groups.
    meta: { invalidates: [groupKeys.all, userKeys.self] },
  });
}

export function useUpdateGroup(groupId: string) {
  return useMutation({
    mutationFn: (fields: GroupFieldsInput) => updateGroup(groupId, fields),
    meta: { invalidates: [groupKeys.all] },
  });
}

export function useSetGroupProtected(groupId: string) {
  return useMutation({
    mutationFn: (value: boolean) => setGroupProtected(groupId, value),
    meta: { invalidates: [groupKeys.detail(groupId)] },
  });
}

export function useDeleteGroup(orgId: string) {
  return useMutation({
    mutationFn: (groupId: string) => deleteGroup(groupId),
    meta: {
      invalidates: (groupId: string) => [
        // The deleted group itself is not read again.
        { queryKey: groupKeys.all, predicate: (q: Query) => !(q.queryKey[1] === 'detail' && q.queryKey[2] === groupId) },
        userKeys.self,
        // The portal drops a deleted group from the new-member defaults.
        userDefaultSettingsKeys.of(orgId),
      ],
    },
  });
}

export type AddAs = 'members' | 'managers';

export interface AddUsersInput {
  names: readonly string[];
  as: AddAs;
  onProgress?: (batchesDone: number, batches: number) => void;
}

/**
 * addUsers (the API sends 25 names a request, one after another). Every batch has its own outcome: the names the
 * service did not add (with reasons), or the error that stopped the whole batch.
 */
export function useAddGroupUsers(groupId: string) {
  return useMutation({
    mutationFn: ({ names, as, onProgress }: AddUsersInput) =>
      addUsersToGroup(groupId, names, as === 'managers' ? 'admins' : 'users', { onProgress: onProgress && ((p) => onProgress(p.batchesDone, p.batches)) }),
    // The group's reads and every group list (member counts): groupKeys.all holds the group's own keys.
    meta: { invalidates: [groupKeys.all], invalidatesOnError: true },
  });
}

/**
 * removeUsers (25 names a request). `notRemoved`: the names the service kept (the owner, managers a
 * manager may not remove) and those of a batch that failed; `error`: why a batch failed.
 */
export function useRemoveGroupUsers(groupId: string) {
  return useMutation({
    mutationFn: async (names: readonly string[]): Promise<{ notRemoved: string[]; error?: unknown }> => {
      const outcomes = await removeUsersFromGroup(groupId, names);
      const failed = outcomes.find((o) => !o.ok);
      return {
        notRemoved: outcomes.flatMap((o) => (o.ok ? o.value.notRemoved : o.item)),
        error: failed && !failed.ok ? failed.error : undefined,
      };
    },
    meta: { invalidates: [groupKeys.all], invalidatesOnError: true },
  });
}

/** updateUsers: make members managers, or managers plain members. */
export function useChangeMemberType(groupId: string) {
  return useMutation({
    mutationFn: ({ names, to }: { names: readonly string[]; to: 'admin' | 'member' }) =>
      updateGroupUsers(groupId, to === 'admin' ? { admins: names } : { users: names }),
    meta: { invalidates: [groupKeys.detail(groupId)], invalidatesOnError: true },
  });
}
