/** Changing the new-member defaults and organization settings; each mutation invalidates what it changes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteUserDefaultSettings, setUserDefaultSettings, updatePortal, type SetUserDefaultSettingsInput } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export function useSetDefaults(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetUserDefaultSettingsInput) => setUserDefaultSettings(orgId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.userDefaultSettings(orgId) }),
  });
}

export function useClearDefaults(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteUserDefaultSettings(orgId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.userDefaultSettings(orgId) }),
  });
}

export function useUpdateOrgSettings(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: { maxExternalMembersPerGroup: number }) => updatePortal(orgId, params),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.portal }),
  });
}
