/** Lifecycle mutations: each invalidates what it changes (the lifecycle's reads and the member lists). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  clearExpiration,
  createPolicy,
  deletePolicy,
  setExpiration,
  setPolicyActive,
  undoPolicyRun,
  updatePolicy,
  type PolicyInput,
} from '../../../api/memberLifecycle.ts';
import { lifecycleKeys } from '../../../api/queries/memberLifecycle.ts';
import { userKeys } from '../../../api/queries/users.ts';

function useInvalidateLifecycle() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: lifecycleKeys.all });
}

export function useSetExpiration(orgId: string) {
  const invalidate = useInvalidateLifecycle();
  return useMutation({
    mutationFn: ({ usernames, expiration }: { usernames: string[]; expiration: number | null }) =>
      expiration === null ? clearExpiration(orgId, usernames) : setExpiration(orgId, usernames, expiration),
    onSettled: invalidate,
  });
}

export function useSavePolicy(orgId: string) {
  const invalidate = useInvalidateLifecycle();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: PolicyInput }) => (id ? updatePolicy(orgId, id, input) : createPolicy(orgId, input)),
    onSettled: invalidate,
  });
}

export function useSetPolicyActive(orgId: string) {
  const invalidate = useInvalidateLifecycle();
  return useMutation({ mutationFn: ({ id, active }: { id: string; active: boolean }) => setPolicyActive(orgId, id, active), onSettled: invalidate });
}

export function useDeletePolicy(orgId: string) {
  const invalidate = useInvalidateLifecycle();
  return useMutation({ mutationFn: (id: string) => deletePolicy(orgId, id), onSettled: invalidate });
}

export function useUndoRun(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, runId }: { id: string; runId: string }) => undoPolicyRun(orgId, id, runId),
    // Undo re-enables members or gives them their role back: every member list and page shows it.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: lifecycleKeys.all }),
        client.invalidateQueries({ queryKey: userKeys.members(orgId) }),
        client.invalidateQueries({ queryKey: ['users'] }),
      ]),
  });
}
