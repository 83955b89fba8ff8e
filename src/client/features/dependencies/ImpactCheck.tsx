/**
 * What a risky change breaks, said in the change's own confirm step (delete, deprecate, transfer,
 * narrower sharing, a service item's new URL), from the dependents' answers (useImpact: the
 * portal's index, or the graph this browser built). It never blocks the change: while it checks,
 * and when the check fails, the confirm button stays usable and the words say so. The result is
 * announced.
 */
import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { describeError } from '../../api/index.ts';
import type { ImpactCheckProps } from '../../components/ImpactSlot.tsx';
import { ImpactBody } from './ImpactBody.tsx';
import { RegisteredAppWarning } from './RegisteredAppWarning.tsx';
import { TransferUsesCheck } from './TransferUsesCheck.tsx';
import { useImpactCheck } from './useImpactCheck.ts';

export type { ImpactCheckProps };

export function ImpactCheck({ items, change, onReplace, groupTitle }: ImpactCheckProps) {
  const { impact, result, subject, newOwner, privileges, audienceRows, urlRows, waiting, summary, titleOfGroup } = useImpactCheck({
    items,
    change,
    groupTitle,
  });

  return (
    <Stack gap="xs" data-testid="impact-check" aria-label="Impact check" role="group">
      {/* What no item's data names: the sign-ins through a registered app. */}
      {change.kind === 'delete' ? <RegisteredAppWarning items={items} /> : null}
      {impact.isError ? (
        <Alert color="orange" variant="light" title="The impact check could not be made">
          {describeError(impact.error)} You can still go ahead, but nothing was checked: items that use {subject} may break.
        </Alert>
      ) : waiting || !result ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Checking what uses {subject}…</Text>
        </Group>
      ) : (
        <ImpactBody
          change={change}
          result={result}
          audienceRows={audienceRows}
          urlRows={urlRows}
          summary={summary ?? ''}
          groupTitle={titleOfGroup}
          onReplace={onReplace}
          ownerUnknown={change.kind === 'transfer' && !privileges}
          newOwner={newOwner}
        />
      )}
      {/* The other direction: what the moved items use that the new owner cannot see. */}
      {change.kind === 'transfer' ? <TransferUsesCheck items={items} newOwner={change.newOwner} /> : null}
    </Stack>
  );
}
