/**
 * Who can see the item: owner only, the organization, or everyone — and which groups. Choices the
 * member may not make are disabled with the privilege named; groups the portal would not share to
 * are reported after saving.
 */
import { Alert, Button, Group, Modal, MultiSelect, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, type Item } from '../../api/index.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useShareItem } from './mutations.ts';
import { groupChoicesQuery } from '../../api/queries/groups.ts';
import { shareLevelPermission } from './permissions.ts';
import { ITEM_ACCESS_LABELS, type ItemAccessLevel } from '../../lib/itemAccess.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';

type Level = 'private' | 'org' | 'public';

export function SharingPanel({ item, groups }: { item: Item; groups: string[] }) {
  const user = useCurrentUser();
  const share = useShareItem(item.owner, item.id);
  const initialLevel: Level = item.access === 'public' ? 'public' : item.access === 'org' ? 'org' : 'private';
  const [level, setLevel] = useState<Level>(initialLevel);
  const [selected, setSelected] = useState<string[]>(groups);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const available = useQuery(groupChoicesQuery(user.username));
  const groupTitle = (id: string) => available.data?.results.find((g) => g.id === id)?.title ?? id;
  const orgP = shareLevelPermission(user, item, 'Org');
  const publicP = shareLevelPermission(user, item, 'Public');
  const groupP = shareLevelPermission(user, item, 'Group');
  const added = selected.filter((g) => !groups.includes(g));
  const removed = groups.filter((g) => !selected.includes(g));
  const changed = level !== initialLevel || added.length > 0 || removed.length > 0;
  // Fewer people will see it (a lower level, or a group dropped below the organization level): the
  // confirm step says whose maps and apps will show broken layers.
  const nextAccess: ItemAccessLevel = level === 'private' ? (selected.length ? 'shared' : 'private') : level;
  const narrower = level === 'private' ? initialLevel !== 'private' || removed.length > 0 : level === 'org' && initialLevel === 'public';
  const [confirming, setConfirming] = useState(false);

  const save = () => {
    setResult(null);
    share.mutate(
      { share: { everyone: level === 'public', org: level !== 'private', groups: added }, unshareGroups: removed },
      {
        onSuccess: (r) => {
          const refused = [...r.notSharedWith, ...r.notUnsharedFrom];
          if (refused.length)
            setResult({
              ok: false,
              text: `Not changed for: ${refused.map(groupTitle).join(', ')} (you must be a member of a group to share to it; view-only groups take managers' items only).`,
            });
          else notifications.show({ color: 'green', title: 'Sharing saved', message: `Sharing of “${item.title}” was saved.` });
        },
        onError: (e) => setResult({ ok: false, text: describeError(e) }),
      },
    );
  };

  return (
    <Stack gap="sm">
      <Radio.Group label="Who can see it" value={level} onChange={(v) => setLevel(v)}>
        <Stack gap={6} mt={6}>
          <Radio value="private" label={`${ITEM_ACCESS_LABELS.private} (and the groups below)`} />
          <Radio
            value="org"
            label={ITEM_ACCESS_LABELS.org}
            disabled={!orgP.allowed && initialLevel !== 'org'}
            description={orgP.allowed ? undefined : orgP.reason}
          />
          <Radio
            value="public"
            label={`${ITEM_ACCESS_LABELS.public} (public)`}
            disabled={!publicP.allowed && initialLevel !== 'public'}
            description={publicP.allowed ? undefined : publicP.reason}
          />
        </Stack>
      </Radio.Group>
      <MultiSelect
        label="Groups"
        description={groupP.allowed ? 'Groups the item is shared to.' : groupP.reason}
        data={[...new Set([...(available.data?.results ?? []).map((g) => g.id), ...groups])].map((id) => ({ value: id, label: groupTitle(id) }))}
        value={selected}
        onChange={setSelected}
        searchable
        disabled={!groupP.allowed}
        nothingFoundMessage="No groups"
      />
      {item.contentStatus === 'org_authoritative' && level === 'public' && initialLevel !== 'public' ? (
        <Text size="sm" c="blue">
          In a verified organization, sharing this authoritative item with everyone makes it public authoritative.
        </Text>
      ) : null}
      {result ? (
        <Alert color={result.ok ? 'green' : 'orange'} variant="light" role="alert">
          {result.text}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={narrower ? () => setConfirming(true) : save} disabled={!changed} loading={share.isPending}>
          Save sharing
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Share “${item.title}” more narrowly?`} size="lg" centered>
        <DialogLayout>
          <DialogScroll>
            <Text size="sm">
              Afterwards it is seen by: {ITEM_ACCESS_LABELS[nextAccess]}
              {selected.length ? ` and ${selected.map(groupTitle).join(', ')}` : ''}.
            </Text>
            {confirming ? (
              <ImpactCheckSlot
                items={[item]}
                change={{ kind: 'sharing', access: nextAccess, groups: selected }}
                groupTitle={(id) => available.data?.results.find((g) => g.id === id)?.title}
              />
            ) : null}
          </DialogScroll>
          <ConfirmActions
            color="blue"
            confirmLabel="Save sharing"
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              save();
            }}
          />
        </DialogLayout>
      </Modal>
    </Stack>
  );
}
