/** Adding members and changing roles; each mutation declares what it makes stale. */
import { useMutation } from '@tanstack/react-query';
import { createUser, setMemberDisabled, unlockSignIn, updateUserRole } from '../../api/index.ts';
import { runBulk } from '../../api/index.ts';
import type { AddMemberValues } from './schemas.ts';
import { userKeys } from '../../api/queries/users.ts';
import { roleKeys } from '../../api/queries/roles.ts';
import { portalKeys } from '../../api/queries/portal.ts';
import { historyKeys } from '../../api/queries/history.ts';

export function useAddMember(orgId: string) {
  return useMutation({
    mutationFn: (values: AddMemberValues) => createUser(values),
    // The organization's member count is in portals/self.
    meta: { invalidates: [userKeys.members(orgId), portalKeys.all] },
  });
}

export function useChangeRole(orgId: string, selfUsername: string) {
  return useMutation({
    mutationFn: (vars: { username: string; role: string }) => updateUserRole(orgId, vars),
    meta: {
      invalidates: (vars: { username: string }) => [
        userKeys.members(orgId),
        // Changing one's own role changes one's own privileges.
        ...(vars.username === selfUsername ? [userKeys.self, portalKeys.all] : []),
      ],
    },
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
  return useMutation({
    mutationFn: ({ usernames, role, onProgress }: AssignRoleInput) =>
      runBulk(usernames, (username) => updateUserRole(orgId, { username, role }), { concurrency: 4, onProgress }),
    meta: {
      invalidates: (vars: AssignRoleInput) => [
        userKeys.members(orgId),
        // Member counts of roles.
        roleKeys.all(orgId),
        vars.usernames.includes(selfUsername) ? userKeys.self : undefined,
      ],
      invalidatesOnError: true,
    },
  });
}

/** Lifting a member's sign-in waits (a local extra): the member's history gains the unlock. */
export function useUnlockSignIn() {
  return useMutation({
    mutationFn: (username: string) => unlockSignIn(username),
    meta: { invalidates: [historyKeys.all] },
  });
}

/** Disabling or enabling a member: their row's status and their history change. */
export function useSetMemberDisabled(orgId: string) {
  return useMutation({
    mutationFn: (vars: { username: string; disabled: boolean }) => setMemberDisabled(vars.username, vars.disabled),
    meta: { invalidates: [userKeys.members(orgId), historyKeys.all] },
  });
}
