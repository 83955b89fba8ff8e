/** What the selection uses that the target will need too: proposed (ticked), with the items that use each. */
import { Checkbox, Stack, Text } from '@mantine/core';
import { describeError } from '../../api/index.ts';
import { LoadingState } from '../../components/states.tsx';
import type { Need } from './plan.ts';

export interface NeedsChoiceProps {
  needs: readonly Need[] | undefined;
  error: unknown;
  excluded: ReadonlySet<string>;
  onExclude: (excluded: Set<string>) => void;
}

export function NeedsChoice({ needs, error, excluded, onExclude }: NeedsChoiceProps) {
  if (error)
    return (
      <Text size="sm" c="red">
        Could not read what the selection uses: {describeError(error)}
      </Text>
    );
  if (!needs) return <LoadingState label="Reading what the selection uses…" minHeight={40} />;
  if (!needs.length) return <Text size="sm">The selection uses no other item of your organization.</Text>;
  return (
    <Checkbox.Group
      label="Also copy what the selection uses"
      description="Without them, the copies keep pointing at the originals."
      value={needs.map((n) => n.item.id).filter((id) => !excluded.has(id))}
      onChange={(kept) => onExclude(new Set(needs.map((n) => n.item.id).filter((id) => !kept.includes(id))))}
    >
      <Stack gap={6} mt={6}>
        {needs.map((n) => (
          <Checkbox key={n.item.id} value={n.item.id} label={`${n.item.title} (${n.item.type})`} description={`Used by ${n.neededBy.join(', ')}`} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
