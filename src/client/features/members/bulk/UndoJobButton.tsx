/**
 * Undo of a finished server job from its results, as one action: the portal runs a job of the
 * inverse action over the members this one changed (docs/member-jobs.md); each member changed since
 * is left as they are, and the outcome says who and why. Also offered from Activity (the job's entry).
 */
import { Button, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../api/index.ts';
import { undoMemberJobToEnd, undoSummary } from '../../../api/memberJobs.ts';
import { groupKeys } from '../../../api/queries/groups.ts';
import { historyKeys } from '../../../api/queries/history.ts';
import { userKeys } from '../../../api/queries/users.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import type { BulkKind } from './plan.ts';

export function UndoJobButton({ jobId, kind }: { jobId: string; kind: BulkKind }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: () => undoMemberJobToEnd(user.orgId, jobId),
    onSettled: () => {
      for (const queryKey of [userKeys.members(user.orgId), groupKeys.all, historyKeys.all]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  // A deleted account cannot be brought back: nothing to offer.
  if (kind === 'delete') return null;
  return (
    <>
      {undo.data ? (
        <Text size="sm" role="status" data-testid="job-undo-result">
          Undone: {undoSummary(undo.data)}
        </Text>
      ) : null}
      {undo.error ? (
        <Text size="sm" c="red" role="alert">
          The job was not undone: {describeError(undo.error)}
        </Text>
      ) : null}
      <Button variant="default" onClick={() => undo.mutate()} loading={undo.isPending} disabled={!!undo.data}>
        Undo this job
      </Button>
    </>
  );
}
