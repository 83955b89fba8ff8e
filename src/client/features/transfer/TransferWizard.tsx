/**
 * The transfer wizard: a member's items (all, or a selection passed as `items=`) to another member,
 * in four steps — pick the items, pick the new owner and folder, a pre-check that names every
 * refused item with the reason and the fix, then the run with progress, a result per item,
 * "Retry failed" and the side effects (scheduled tasks paused, sharing narrowed). Every step already
 * reached can be opened again from the stepper, the result step included, so a fix (another folder,
 * a group membership) is followed by a check and a retry without starting over.
 */
import { Button, Group, Stepper, Title } from '@mantine/core';
import { BulkProgress } from '../../components/Bulk.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount } from '../../lib/format.ts';
import { TransferCheckStep } from './TransferCheckStep.tsx';
import { TransferItemList } from './TransferItemList.tsx';
import { TransferOwnerStep } from './TransferOwnerStep.tsx';
import { TransferResults } from './TransferResult.tsx';
import { useTransferWizard } from './useTransferWizard.ts';

export function TransferWizard({ from, preset }: { from: string; preset: string[] }) {
  const wizard = useTransferWizard({ from, preset });
  const {
    back,
    owned,
    step,
    goTo,
    reachable,
    headingRef,
    items,
    extra,
    selected,
    setPicked,
    selectedIds,
    titles,
    titleOf,
    target,
    check,
    run,
    startRun,
    transferable,
    failed,
  } = wizard;
  const stepHeading = (text: string) => (
    <Title order={2} size="h4" mb="sm" ref={headingRef} tabIndex={-1}>
      {text}
    </Title>
  );

  if (owned.isPending) return <LoadingState label={`Loading ${from}'s items…`} />;
  if (owned.isError) return <ErrorState error={owned.error} title="The items could not be loaded" onRetry={() => owned.refetch()} />;

  return (
    <Stepper active={step} onStepClick={(s) => reachable(s) && goTo(s)} size="sm" mb="md">
      <Stepper.Step label="Items" description={`${formatCount(step >= 2 ? titles.size : selectedIds.length)} selected`} allowStepSelect={reachable(0)}>
        {stepHeading('Items to transfer')}
        <TransferItemList
          items={items}
          extra={extra}
          selected={selected}
          onChange={(next) => setPicked(next)}
          chosenFirst={preset}
          total={owned.data?.total ?? items.length}
          totalEstimated={owned.data?.totalEstimated}
          from={from}
        />
        <Group justify="flex-end" mt="md">
          <Button onClick={() => goTo(1)} disabled={!selectedIds.length}>
            Next: new owner
          </Button>
        </Group>
      </Stepper.Step>

      <Stepper.Step label="New owner" description={target ?? 'Member and folder'} allowStepSelect={reachable(1)}>
        {stepHeading('New owner and folder')}
        <TransferOwnerStep from={from} wizard={wizard} />
      </Stepper.Step>

      <Stepper.Step
        label="Pre-check"
        description={check.outcomes ? `${transferable.length} transferable` : 'Who may receive what'}
        allowStepSelect={reachable(2)}
      >
        {stepHeading('Pre-check')}
        <TransferCheckStep wizard={wizard} />
      </Stepper.Step>

      <Stepper.Step
        label="Transfer"
        description={run.outcomes && !run.running ? `${(run.outcomes ?? []).length - failed.length} transferred` : 'Run'}
        allowStepSelect={reachable(3)}
      >
        {stepHeading('Transfer')}
        {run.running ? <BulkProgress label="Transferring items" done={run.done} total={run.total} /> : null}
        {!run.running && run.outcomes ? (
          <TransferResults
            outcomes={run.outcomes}
            target={target ?? ''}
            folder={run.folder ?? '/'}
            titleOf={titleOf}
            back={back}
            onRetry={failed.length ? () => startRun(failed, run.outcomes) : undefined}
            onChange={() => goTo(1)}
          />
        ) : null}
      </Stepper.Step>
    </Stepper>
  );
}
