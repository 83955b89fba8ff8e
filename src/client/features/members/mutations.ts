/** Adding members and changing roles; each mutation declares what it makes stale. */
import { useMutation } from '@tanstack/react-query';
import { createUser, runBulk, setMemberDisabled, unlockSignIn, updateUser, updateUserLicenseType, updateUserRole } from '../../api/index.ts';
import type { OnProgress } from './bulk/run.ts';
import type { AddMemberValues } from './schemas.ts';
import type { CreateUserParams } from '../../../shared/contract/users.ts';
import { userKeys } from '../../api/queries/users.ts';
import { portalKeys } from '../../api/queries/portal.ts';
import { historyKeys } from '../../api/queries/history.ts';

export function useAddMember(orgId: string) {
  return useMutation({
    mutationFn: (values: AddMemberValues) => createUser(values),
    // The organization's member count is in portals/self.
    meta: { invalidates: [userKeys.members(orgId), portalKeys.all] },
  });
}

/** Requests on their way at once when adding members from a file: a few, so a long file does not flood the portal. */
const CSV_CONCURRENCY = 4;

/** Members from a CSV file: one createUser a row, every outcome kept (one refusal never stops the others). */
export function useAddMembersFromCsv(orgId: string) {
  return useMutation({
    mutationFn: (vars: { rows: readonly { line: number; params: CreateUserParams }[]; onProgress: OnProgress }) =>
      runBulk(vars.rows, (row) => createUser(row.params), { concurrency: CSV_CONCURRENCY, onProgress: vars.onProgress }),
    meta: { invalidates: [userKeys.members(orgId), portalKeys.all, historyKeys.all], invalidatesOnError: true },
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

/** One member's user type (updateUserLicenseType with one name): the portal says why it refuses. */
export function useChangeUserType(orgId: string) {
  return useMutation({
    mutationFn: async (vars: { username: string; userLicenseType: string }) => {
      const { results } = await updateUserLicenseType(orgId, [vars.username], vars.userLicenseType);
      const r = results.find((x) => x.username.toLowerCase() === vars.username.toLowerCase());
      if (!r?.status) throw new Error(r?.error?.message ?? 'The portal did not change the user type.');
      return r;
    },
    meta: { invalidates: (vars: { username: string }) => [userKeys.members(orgId), userKeys.one(vars.username), historyKeys.all] },
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
    meta: { invalidates: (vars: { username: string }) => [userKeys.members(orgId), userKeys.one(vars.username), historyKeys.all] },
  });
}

/** A new password for a member (Update User's `password`): their sessions end; the history records a reset, never the value. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (vars: { username: string; password: string }) => updateUser(vars.username, { password: vars.password }),
    meta: { invalidates: [historyKeys.all] },
  });
}
