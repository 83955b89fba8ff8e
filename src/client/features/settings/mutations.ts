/** Changing the new-member defaults and organization settings; each mutation declares what it makes stale. */
import { useMutation } from '@tanstack/react-query';
import { deleteUserDefaultSettings, setUserDefaultSettings, updatePortal, type SetUserDefaultSettingsInput } from '../../api/index.ts';
import { portalKeys } from '../../api/queries/portal.ts';
import { userDefaultSettingsKeys } from '../../api/queries/userDefaultSettings.ts';

export function useSetDefaults(orgId: string) {
  return useMutation({
    mutationFn: (input: SetUserDefaultSettingsInput) => setUserDefaultSettings(orgId, input),
    meta: { invalidates: [userDefaultSettingsKeys.of(orgId)] },
  });
}

export function useClearDefaults(orgId: string) {
  return useMutation({
    mutationFn: () => deleteUserDefaultSettings(orgId),
    meta: { invalidates: [userDefaultSettingsKeys.of(orgId)] },
  });
}

export function useUpdateOrgSettings(orgId: string) {
  return useMutation({
    mutationFn: (params: { maxExternalMembersPerGroup: number }) => updatePortal(orgId, params),
    meta: { invalidates: [portalKeys.all] },
  });
}
