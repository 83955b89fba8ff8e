/** A bulk action's results: one row per member — done, skipped (and why) or refused with the portal's reason. */
import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { BulkResultTable, RetryFailedButton, type BulkResultRow } from '../../../components/Bulk.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { BULK_TITLES, type BulkKind } from './plan.ts';
import type { MemberOutcome } from './run.ts';
import { UndoJobButton } from './UndoJobButton.tsx';

/** A member the action was for (a plan's row, or a name read back from a job), and why they were skipped. */
export interface ResultRowSource {
  member: { username: string; fullName?: string };
  skip?: string;
}

export interface BulkResultsProps {
  kind: BulkKind;
  plan: readonly ResultRowSource[];
  outcomes: ReadonlyMap<string, MemberOutcome>;
  /** Offered when the failed ones can be sent again from here. */
  onRetry?: (failed: string[]) => void;
  /** A server job's id: its changes can be undone as one action from here. */
  jobId?: string;
  onDone: () => void;
}

export function BulkResults({ kind, plan, outcomes, onRetry, jobId, onDone }: BulkResultsProps) {
  // Sent and refused: worth another try. Skipped ones were never sent, for the reason the preview gave.
  const failed = plan.filter((r) => !r.skip && outcomes.get(r.member.username)?.ok === false).map((r) => r.member.username);
  const rows: BulkResultRow[] = plan.map(({ member: m, skip }) => {
    const outcome = outcomes.get(m.username);
    const detail = skip ? `Skipped: ${skip}` : (outcome?.detail ?? 'Not sent');
    return {
      key: m.username,
      spoken: m.username,
      name: (
        <Text size="sm">
          {m.fullName && m.fullName !== m.username ? `${m.fullName} ` : null}
          <Text span size="xs" c="dimmed" ff="monospace">
            {m.username}
          </Text>
        </Text>
      ),
      ok: !skip && outcome?.ok === true,
      detail:
        // A member the portal would not delete: what they own is dealt with from their page.
        kind === 'delete' && !skip && outcome && !outcome.ok ? (
          <>
            {detail}{' '}
            <Anchor component={Link} to={`/members/${encodeURIComponent(m.username)}`} size="xs">
              Open the member page of {m.username}
            </Anchor>
          </>
        ) : (
          detail
        ),
    };
  });
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <BulkResultTable label={`${BULK_TITLES[kind]} results`} rows={rows} nameHeader="Member" successLabel="Changed" failureLabel="Not changed" autoFocus />
      </DialogScroll>
      <DialogFooter>
        {jobId ? <UndoJobButton jobId={jobId} kind={kind} /> : null}
        {onRetry ? <RetryFailedButton count={failed.length} onRetry={() => onRetry(failed)} /> : null}
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </DialogLayout>
  );
}
