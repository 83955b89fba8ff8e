/**
 * Before a member is deleted, the groups they own go to other members: one row per group, each with
 * its own new owner, given with Reassign Group (ArcGIS's documented operation, administrators only).
 * Each group answers for itself and its row says how it went, a refusal in the portal's words (a
 * portal without the operation answers so on every row); the delete stays the dialog's own button.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { MemberPicker, type PickedMember } from '../../../components/MemberPicker.tsx';
import { plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useReassignGroups, type GroupTransferOutcome } from '../../../lib/reassignGroups.ts';
import { ownedGroupsQuery, ownershipKey } from './ownership.ts';

export function GroupTransferPlan({ from }: { from: string }) {
  const user = useCurrentUser();
  const owned = useQuery(ownedGroupsQuery(user.orgId, from));
  // What the member owns is re-read behind the answers, so the rows show as soon as they came.
  const transfer = useReassignGroups([{ queryKey: ownershipKey(user.orgId, from), background: true }]);
  const [byGroup, setByGroup] = useState<Readonly<Record<string, PickedMember | null>>>({});
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, GroupTransferOutcome>>(new Map());
  const groups = owned.data?.results ?? [];
  // A group given away leaves the member's list; its row stays until the next run, with its result.
  const shown = [
    ...groups,
    ...[...outcomes.values()].filter((o) => o.ok && !groups.some((g) => g.id === o.groupId)).map((o) => ({ id: o.groupId, title: o.title })),
  ];
  if (!shown.length) return null;
  const planned = groups.filter((g) => byGroup[g.id]);

  async function run() {
    const answered = await transfer.mutateAsync(planned.map((g) => ({ groupId: g.id, title: g.title, targetUsername: byGroup[g.id]!.username })));
    setOutcomes(new Map(answered.map((o) => [o.groupId, o])));
  }

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="group-plan-heading" data-testid="group-transfer-plan">
      <Stack gap="sm">
        <Title order={3} size="h5" id="group-plan-heading">
          Give {from}’s groups to other members
        </Title>
        {shown.map((g) => {
          const outcome = outcomes.get(g.id);
          const gone = !groups.some((x) => x.id === g.id);
          return (
            <Stack key={g.id} gap={4} component="section" aria-label={`Group ${g.title}`}>
              <MemberPicker
                orgId={user.orgId}
                label={`New owner of the group “${g.title}”`}
                description="They become its owner; if not in the group they join it. The member leaving stays a member until deleted."
                value={byGroup[g.id] ?? null}
                onChange={(m) => setByGroup({ ...byGroup, [g.id]: m })}
                exclude={[from]}
                disabled={transfer.isPending || gone}
              />
              {outcome ? (
                <Text size="sm" c={outcome.ok ? undefined : 'red.9'} fw={500} role={outcome.ok ? 'status' : 'alert'} data-testid="group-transfer-result">
                  {outcome.ok ? `Given to ${outcome.targetUsername}.` : `Not given to ${outcome.targetUsername}: ${outcome.message}`}
                </Text>
              ) : null}
            </Stack>
          );
        })}
        <Group justify="flex-end" gap="sm">
          <Button onClick={run} loading={transfer.isPending} disabled={!planned.length}>
            Give {plural(planned.length, 'group')} away
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
