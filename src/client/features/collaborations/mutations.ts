import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeParticipant, removeParticipation } from '../../api/index.ts';
import { collaborationKeys } from './queries.ts';

/** Removes a participant; the collaboration's reads are fetched again (counts, statuses, workspaces, events). */
export function useRemoveParticipant(orgId: string, collaborationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (participantPortalId: string) => removeParticipant(orgId, collaborationId, participantPortalId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collaborationKeys.all(orgId) }),
  });
}

/** A guest organization leaves the collaboration. */
export function useLeaveCollaboration(orgId: string, collaborationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeParticipation(orgId, collaborationId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collaborationKeys.all(orgId) }),
  });
}
