/**
 * The transfer pre-check's rows for what the moved items use (transferUses.ts): "'Hydrant map' uses
 * items the new owner can't see — share it or include it: 'Hydrant layer' (…)". It warns, never
 * blocks: the owner of the used item may share it, or the item can be ticked into the same run.
 */
import { Alert, Anchor, Group, List, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import type { ImpactItem } from '../../components/ImpactSlot.tsx';
import { announce } from '../../lib/announce.ts';
import { ITEM_ACCESS_LABELS } from '../../lib/itemAccess.ts';
import { userQuery } from '../../api/queries/users.ts';
import { useSharingGroups } from './ImpactCheckGroups.ts';
import { useItemsUse } from './queries.ts';
import { sharedUses, unseenUses, type NewOwner } from './transferUses.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The group ids of a member record (the portal lists them for the member and administrators). */
function groupIdsOf(groups: unknown[] | undefined): Set<string> | undefined {
  if (!groups) return undefined;
  return new Set(groups.map((g) => (typeof g === 'string' ? g : String((g as { id?: unknown }).id ?? ''))).filter(Boolean));
}

export function TransferUsesCheck({ items, newOwner }: { items: readonly ImpactItem[]; newOwner: string }) {
  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const uses = useItemsUse(ids);
  const owner = useQuery({ ...userQuery(newOwner), enabled: !!newOwner, retry: false });
  const shared = useMemo(() => (uses.data ? sharedUses(uses.data, items) : []), [uses.data, items]);
  const groups = useSharingGroups(shared, shared.length > 0);
  const receiver = useMemo<NewOwner>(
    () => ({ username: newOwner, privileges: owner.data?.privileges, groupIds: groupIdsOf(owner.data?.groups) }),
    [newOwner, owner.data],
  );
  const waiting = uses.isPending || owner.isPending || (shared.length > 0 && groups.isPending);
  const rows = useMemo(
    () => (uses.data && !waiting ? unseenUses(uses.data, items, receiver, groups.data?.groups) : undefined),
    [uses.data, waiting, items, receiver, groups.data],
  );
  const hidden = uses.data?.reduce((n, a) => n + a.hidden, 0) ?? 0;

  useEffect(() => {
    if (rows?.length) announce(`${plural(rows.length, 'item')} to transfer ${rows.length === 1 ? 'uses' : 'use'} items ${newOwner} can't see.`);
  }, [rows?.length, newOwner]);

  if (uses.error)
    return (
      <Text size="sm" c="orange.8">
        What these items use could not be read: the new owner may not see all of it.
      </Text>
    );
  if (!rows)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">Checking what these items use…</Text>
      </Group>
    );
  if (!rows.length && !hidden) return null;
  return (
    <Alert color="orange" variant="light" title={`Uses items ${newOwner} can't see`} data-testid="transfer-uses-check">
      {rows.length ? (
        <List size="sm" spacing={4} aria-label="Items that use what the new owner cannot see">
          {rows.map(({ item, unseen }) => (
            <List.Item key={item.id} data-testid="unseen-use">
              {`${item.title} uses items the new owner can't see — share it or include it: `}
              {unseen.map((n, i) => (
                <span key={n.id}>
                  {i ? ', ' : ''}
                  <Anchor component={Link} to={`/content/items/${n.id}`} size="sm">
                    {n.title || n.id}
                  </Anchor>
                  {` (${n.type}, ${n.owner}, ${ITEM_ACCESS_LABELS[n.access] ?? n.access})`}
                </span>
              ))}
            </List.Item>
          ))}
        </List>
      ) : null}
      {hidden ? <Text size="sm">They also use {plural(hidden, 'item')} you cannot see: the new owner may not see them either.</Text> : null}
    </Alert>
  );
}
