/**
 * A bulk action on members: what it sets (role, user type, groups), a preview of each member (the
 * change, or who is skipped and why), then progress, then one result per member with the portal's
 * reason for each failure, and a retry of the failed ones.
 */
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import type { RoleRecord } from '../../../api/index.ts';
import { BulkProgress } from '../../../components/Bulk.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { IconAlert } from '../../../components/icons.tsx';
import { ErrorState } from '../../../components/states.tsx';
import { formatCount, plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { OwnershipPreview } from '../delete/OwnershipPreview.tsx';
import { BulkChoice } from './BulkChoice.tsx';
import { BulkPreview } from './BulkPreview.tsx';
import { BulkResults } from './BulkResults.tsx';
import { BulkRunProgress } from './BulkRunProgress.tsx';
import { useBulkRun } from './useBulkRun.ts';
import { BULK_TITLES, planBulk, type BulkAction, type BulkKind, type PlanRow } from './plan.ts';
import type { MemberOutcome } from './run.ts';
import { useMatchingMembers, type BulkTarget } from './useMatchingMembers.ts';

/** The Members page shows an unfinished bulk action beside where it starts one. */
export { UnfinishedBulkRun } from './UnfinishedBulkRun.tsx';

export interface BulkMembersModalProps {
  /** The action chosen, or null when closed. */
  kind: BulkKind | null;
  target: BulkTarget;
  /** `finished`: a run happened (the selection has served its purpose). */
  onClose: (finished: boolean) => void;
  customRoles: readonly RoleRecord[] | undefined;
  rolesNote?: string;
}

const count = (t: BulkTarget) => (t.kind === 'rows' ? t.members.length : t.total);

export function BulkMembersModal({ kind, target, onClose, ...rest }: BulkMembersModalProps) {
  const n = count(target);
  return (
    <Modal opened={kind !== null} onClose={() => onClose(false)} title={kind ? `${BULK_TITLES[kind]}: ${plural(n, 'member')}` : ''} size="xl" centered>
      {kind ? <BulkFlow kind={kind} target={target} onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

const FIXED: Partial<Record<BulkKind, BulkAction>> = { disable: { kind: 'disable' }, enable: { kind: 'enable' }, delete: { kind: 'delete' } };

const NOTES: Partial<Record<BulkKind, string>> = {
  disable: 'Disabled members cannot sign in by any path and are signed out everywhere at once; what they own stays as it is.',
  delete:
    'The portal refuses to delete a member who still owns items or groups, and says so for each: transfer or delete what they own first, from their member page.',
};

function BulkFlow({ kind, target, onClose, customRoles, rolesNote }: Omit<BulkMembersModalProps, 'kind'> & { kind: BulkKind }) {
  const user = useCurrentUser();
  const run = useBulkRun(user.orgId, user.username);
  const matching = useMatchingMembers(user.orgId, target);
  const [action, setAction] = useState<BulkAction | null>(FIXED[kind] ?? null);
  const [earlier, setEarlier] = useState<{ plan: PlanRow[]; outcomes: Map<string, MemberOutcome> } | null>(null);

  if (matching.error) return <ErrorState error={matching.error} onRetry={matching.retry} />;
  if (!matching.members)
    return <BulkProgress label="Reading the members that match the filter" done={matching.read?.done ?? 0} total={matching.read?.total ?? 0} autoFocus />;

  const plan = action ? planBulk(action, matching.members, user, customRoles) : [];
  const toSend = plan.filter((r) => !r.skip).map((r) => r.member.username);

  const start = (names: string[], basis: PlanRow[], previous?: Map<string, MemberOutcome>) => {
    setEarlier({ plan: basis, outcomes: previous ?? new Map<string, MemberOutcome>() });
    run.start(action!, names);
  };

  const finished = run.state?.phase === 'finished' ? run.state.outcomes : undefined;
  if (run.state && !finished) return <BulkRunProgress state={run.state} error={run.error} onControl={run.control} onClose={() => onClose(false)} />;
  if (finished && earlier) {
    const outcomes = new Map(earlier.outcomes);
    for (const [name, outcome] of finished) outcomes.set(name, outcome);
    return (
      <BulkResults
        kind={kind}
        plan={earlier.plan}
        outcomes={outcomes}
        onRetry={(failed) => start(failed, earlier.plan, outcomes)}
        jobId={run.state?.jobId}
        onDone={() => onClose(true)}
      />
    );
  }

  const skipped = plan.length - toSend.length;
  const danger = kind === 'delete' || kind === 'disable';
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        {NOTES[kind] ? (
          <Alert color={danger ? 'orange' : 'blue'} variant="light" icon={<IconAlert />}>
            {NOTES[kind]}
          </Alert>
        ) : null}
        {/* One member to delete: what they own, kind by kind, before anything is sent. */}
        {kind === 'delete' && target.kind === 'rows' && target.members.length === 1 ? <OwnershipPreview member={target.members[0]} /> : null}
        <BulkChoice kind={kind} action={action} onChange={setAction} customRoles={customRoles} rolesNote={rolesNote} />
        {matching.partitioned ? (
          // How "all matching" was read where one search cannot page to every member.
          <Text size="sm" data-testid="bulk-read-how">
            {`${formatCount(matching.members.length)} members read in ${plural(matching.partitioned.parts, 'part')} by creation date: the portal returns at most ${formatCount(matching.partitioned.cap)} members per search.`}
          </Text>
        ) : null}
        {action ? <BulkPreview rows={plan} /> : null}
      </DialogScroll>
      <DialogFooter justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="bulk-summary">
          {action ? `${formatCount(toSend.length)} will change, ${formatCount(skipped)} skipped.` : 'Choose above to see what changes for each member.'}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={() => onClose(false)}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} disabled={!action || toSend.length === 0} onClick={() => start(toSend, plan)}>
            {BULK_TITLES[kind]} {plural(toSend.length, 'member')}
          </Button>
        </Group>
      </DialogFooter>
    </DialogLayout>
  );
}
