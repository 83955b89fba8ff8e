/**
 * Copy to… : choose the target (and what the selection needs) → the plan → apply, with progress per
 * item → results with links to the copies, and undo. The source is the portal the console acts on.
 */
import { Button, Modal, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { currentConnection, type Item } from '../../api/index.ts';
import type { CopyToDialogProps } from '../../components/CopySlot.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { announce } from '../../lib/announce.ts';
import { useSessionState } from '../../lib/session.ts';
import { ApplyStep, type Created } from './ApplyStep.tsx';
import { connectionOfSession } from './connections.ts';
import type { CopyPlan } from './plan.ts';
import { useNeeds, usePlan } from './hooks.ts';
import { withSkippedGroups } from './GroupsPlan.tsx';
import { NeedsChoice } from './NeedsChoice.tsx';
import { PlanView } from './PlanView.tsx';
import type { PortalConnection } from './portal.ts';
import { TargetChoice } from './TargetChoice.tsx';

type Step = 'target' | 'plan' | 'apply';

export function CopyDialog({ items, opened, onClose }: CopyToDialogProps) {
  const { session, sessions } = useSessionState();
  const source = useMemo(() => (session ? connectionOfSession(session) : undefined), [session]);
  return (
    <Modal opened={opened} onClose={onClose} title={`Copy ${items.length} item${items.length === 1 ? '' : 's'} to…`} size="xl" centered>
      {source && session ? (
        <CopyWizard items={items} source={source} others={sessions.filter((s) => s !== session).map(connectionOfSession)} onClose={onClose} />
      ) : (
        <Text>Sign in first.</Text>
      )}
    </Modal>
  );
}

function CopyWizard({ items, source, others, onClose }: { items: readonly Item[]; source: PortalConnection; others: PortalConnection[]; onClose: () => void }) {
  const [step, setStep] = useState<Step>('target');
  const [added, setAdded] = useState<PortalConnection[]>([]);
  const [target, setTarget] = useState<PortalConnection>();
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [approved, setApproved] = useState<CopyPlan>();
  const [created, setCreated] = useState<Created>({ created: [], createdGroups: [] });
  const needs = useNeeds(source, items);
  const chosen = useMemo(() => [...items, ...(needs.data ?? []).map((n) => n.item).filter((i) => !excluded.has(i.id))], [items, needs.data, excluded]);
  if (step === 'target' || !target) {
    return (
      <DialogLayout>
        <DialogScroll>
          <TargetChoice
            targets={[...others, ...added]}
            chosen={target}
            onChoose={setTarget}
            onAdd={(t) => {
              setAdded((a) => [...a.filter((x) => x.portalUrl !== t.portalUrl || x.username !== t.username), t]);
              setTarget(t);
              announce(`Signed in to ${t.label}; chosen as the target.`);
            }}
            defaultPortalUrl={currentConnection().portalUrl}
          />
          <NeedsChoice needs={needs.data} error={needs.error} excluded={excluded} onExclude={setExcluded} />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => setStep('plan')} disabled={!target || needs.isPending}>
            Review the plan
          </Button>
        </DialogFooter>
      </DialogLayout>
    );
  }
  if (step === 'plan' || !approved) {
    return (
      <PlanStep
        items={chosen}
        source={source}
        target={target}
        onBack={() => setStep('target')}
        onApply={(plan) => {
          setApproved(plan);
          setStep('apply');
        }}
      />
    );
  }
  return (
    <ApplyStep
      plan={approved}
      source={source}
      target={target}
      created={created}
      onCreated={(r) =>
        setCreated((c) => ({ created: [...new Set([...c.created, ...r.created])], createdGroups: [...new Set([...c.createdGroups, ...r.createdGroups])] }))
      }
      onUndone={() => setCreated({ created: [], createdGroups: [] })}
      onBack={() => setStep('plan')}
      onClose={onClose}
    />
  );
}

function PlanStep({
  items,
  source,
  target,
  onBack,
  onApply,
}: {
  items: readonly Item[];
  source: PortalConnection;
  target: PortalConnection;
  onBack: () => void;
  onApply: (plan: CopyPlan) => void;
}) {
  const plan = usePlan(source, target, items);
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string, create: boolean) =>
    setSkipped((s) => {
      const next = new Set(s);
      if (create) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <DialogLayout>
      <DialogScroll>
        {plan.data ? (
          <PlanView plan={plan.data} targetLabel={target.label} skippedGroups={skipped} onToggleGroup={toggle} />
        ) : plan.error ? (
          <ErrorState error={plan.error} title="Could not plan the copy" onRetry={() => void plan.refetch()} />
        ) : (
          <LoadingState label="Planning the copy…" />
        )}
      </DialogScroll>
      <DialogFooter>
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button onClick={() => plan.data && onApply(withSkippedGroups(plan.data, skipped))} disabled={!plan.data?.steps.length}>
          {plan.data ? `Copy ${plan.data.steps.length} item${plan.data.steps.length === 1 ? '' : 's'}` : 'Copy'}
        </Button>
      </DialogFooter>
    </DialogLayout>
  );
}
