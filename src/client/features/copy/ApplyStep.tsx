/** The apply step of Copy to…: runs the plan (or resumes it), shows progress and results, offers undo. */
import { Alert, Button } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { currentConnection } from '../../api/index.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { announce } from '../../lib/announce.ts';
import type { StepState } from './apply.ts';
import { ApplyView } from './ApplyView.tsx';
import { itemHref } from './connections.ts';
import { useApplyCopy, useUndoCopy } from './hooks.ts';
import type { CopyPlan } from './plan.ts';
import type { PortalConnection } from './portal.ts';
import type { CopyProgress } from './progress.ts';

/** What the runs of one dialog created in the target: undo deletes them, whichever run it follows. */
export interface Created {
  created: string[];
  createdGroups: string[];
}

export interface ApplyStepProps {
  plan: CopyPlan;
  source: PortalConnection;
  target: PortalConnection;
  created: Created;
  onCreated: (c: Created) => void;
  onUndone: () => void;
  /** Absent when there is no plan to go back to (a resumed copy). */
  onBack?: () => void;
  onClose: () => void;
  resumeFrom?: CopyProgress;
}

export function ApplyStep({ plan, source, target, created, onCreated, onUndone, onBack, onClose, resumeFrom }: ApplyStepProps) {
  const [states, setStates] = useState<Map<string, StepState>>(new Map());
  const apply = useApplyCopy(source, target, (id, state) => setStates((m) => new Map(m).set(id, state)), resumeFrom);
  const undo = useUndoCopy(target);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    apply.mutate(plan, {
      onSuccess: (r) => {
        onCreated({ created: r.created, createdGroups: r.createdGroups });
        announce(`Copied ${r.items.length} items.`);
      },
      onError: () => announce('The copy failed; items it had created were removed again.', 'assertive'),
    });
  }, [apply, plan, onCreated]);
  const consolePortal = currentConnection().portalUrl;
  const count = created.created.length;
  return (
    <DialogLayout>
      <DialogScroll>
        <ApplyView
          plan={plan}
          states={states}
          result={apply.data}
          error={apply.error ?? undefined}
          deleted={deleted}
          hrefOf={(id) => itemHref(target, id, consolePortal)}
          targetUser={target.username}
        />
        {undo.isError ? (
          <Alert color="red" variant="light" title="Undo incomplete" role="alert">
            {undo.error.message}
          </Alert>
        ) : null}
      </DialogScroll>
      <DialogFooter>
        {onBack && (apply.isError || (apply.isSuccess && !undo.isSuccess)) ? (
          <Button variant="default" onClick={onBack}>
            {apply.isError ? 'Back to the plan' : 'Copy again'}
          </Button>
        ) : null}
        {apply.isSuccess && count && !undo.isSuccess ? (
          <Button
            variant="light"
            color="red"
            loading={undo.isPending}
            onClick={() =>
              undo.mutate(created, {
                onSuccess: () => {
                  setDeleted(new Set(created.created));
                  onUndone();
                  announce('Undone.');
                },
              })
            }
          >
            Undo: delete the {count} created item{count === 1 ? '' : 's'}
            {created.createdGroups.length ? ` and ${created.createdGroups.length} group${created.createdGroups.length === 1 ? '' : 's'}` : ''}
          </Button>
        ) : null}
        <Button onClick={onClose} disabled={apply.isPending}>
          Close
        </Button>
      </DialogFooter>
    </DialogLayout>
  );
}
