/** Adding members and changing roles; each mutation invalidates what it changes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createUser, setMemberDisabled, unlockSignIn, updateUserRole } from '../../api/index.ts';
import { runBulk } from '../../lib/bulk.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { AddMemberValues } from './schemas.ts';

export function useAddMember(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: AddMemberValues) => createUser(values),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members(orgId) }),
        // The organization's member count.
        queryClient.invalidateQueries({ queryKey: queryKeys.portal }),
      ]),
  });
}

export function useChangeRole(orgId: string, selfUsername: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { username: string; role: string }) => updateUserRole(orgId, vars),
    onSuccess: (_result, vars) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members(orgId) }),
        // Changing one's own role changes one's own privileges.
        vars.username === selfUsername ? queryClient.invalidateQueries({ queryKey: queryKeys.self }) : undefined,
        vars.username === selfUsername ? queryClient.invalidateQueries({ queryKey: queryKeys.portal }) : undefined,
      ]),
  });
}

export interface AssignRoleInput {
  usernames: readonly string[];
  role: string;
  onProgress?: (done: number, total: number) => void;
}

/**
 * One role for several members: updateUserRole per member, a few at a time, every outcome kept
 * (one refusal never stops the others).
 */
export function useAssignRole(orgId: string, selfUsername: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ usernames, role, onProgress }: AssignRoleInput) =>
      runBulk(usernames, (username) => updateUserRole(orgId, { username, role }), { concurrency: 4, onProgress }),
    onSettled: (_outcomes, _error, vars) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members(orgId) }),
        // Member counts of roles.
        queryClient.invalidateQueries({ queryKey: queryKeys.roles(orgId) }),
        vars.usernames.includes(selfUsername) ? queryClient.invalidateQueries({ queryKey: queryKeys.self }) : undefined,
      ]),
  });
}

/** Lifting a member's sign-in waits (a local extra): the member's history gains the unlock. */
export function useUnlockSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => unlockSignIn(username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['history'] }),
  });
}

/** Disabling or enabling a member: their row's status and their history change. */
export function useSetMemberDisabled(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { username: string; disabled: boolean }) => setMemberDisabled(vars.username, vars.disabled),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.members(orgId) }), queryClient.invalidateQueries({ queryKey: ['history'] })]),
  });
}
