import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeParticipant } from '../../api/index.ts';
import { collaborationKeys } from './queries.ts';

/** Removes a participant; the collaboration's reads are fetched again (counts, statuses, workspaces, events). */
export function useRemoveParticipant(orgId: string, collaborationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (participantPortalId: string) => removeParticipant(orgId, collaborationId, participantPortalId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collaborationKeys.all(orgId) }),
  });
}
