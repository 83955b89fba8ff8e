/** The wizard's pre-check: every item the new owner may or may not receive (with the fix), what the transfer affects, and the run. */
import { Button, Group, Stack } from '@mantine/core';
import { BulkProgress } from '../../components/Bulk.tsx';
import { CheckResults } from '../../components/CheckResults.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import type { useTransferWizard } from './useTransferWizard.ts';

export function TransferCheckStep({
  wizard: { check, titleOf, target, transferable, transferableItems, goTo, startCheck, startRun },
}: {
  wizard: ReturnType<typeof useTransferWizard>;
}) {
  return (
    <>
      {check.running || !check.outcomes ? (
        <BulkProgress label="Checking items" done={check.done} total={check.total} />
      ) : (
        <Stack gap="md">
          <CheckResults outcomes={check.outcomes} titleOf={titleOf} target={target ?? ''} />
          {/* What the transfer breaks (items using these) and what the moved items use that the new owner cannot see. */}
          {transferableItems.length && target ? <ImpactCheckSlot items={transferableItems} change={{ kind: 'transfer', newOwner: target }} /> : null}
        </Stack>
      )}
      <Group justify="space-between" mt="md">
        <Button variant="default" onClick={() => goTo(1)} disabled={check.running}>
          Back
        </Button>
        <Group gap="sm">
          <Button variant="default" onClick={startCheck} disabled={check.running}>
            Check again
          </Button>
          <Button onClick={() => startRun(transferable)} disabled={check.running || !transferable.length}>
            Transfer {transferable.length} item{transferable.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Group>
    </>
  );
}
