/**
 * The state of a group's member list: the search, the member-type filter, paging and sort (each
 * change of filter or sort goes back to the first page), the ticked members, and making them
 * managers or plain members.
 */
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, type GroupMember, type GroupRecord, type GroupUserlistParams, type UserlistSortField } from '../../api/index.ts';
import { groupUserlistQuery } from '../../api/queries/groups.ts';
import { plural } from '../../lib/format.ts';
import { useChangeMemberType } from './mutations.ts';

export function useGroupMembers(group: GroupRecord) {
  const [name, setNameValue] = useState('');
  const [debounced] = useDebouncedValue(name.trim(), 300);
  const [memberType, setMemberTypeValue] = useState('');
  const [paging, setPaging] = useState({ start: 1, num: 10 });
  const [sort, setSortValue] = useState<{ field: UserlistSortField; order: 'asc' | 'desc' }>({ field: 'username', order: 'asc' });
  const params: GroupUserlistParams = {
    start: paging.start,
    num: paging.num,
    name: debounced || undefined,
    memberType: (memberType || undefined) as GroupUserlistParams['memberType'],
    sortField: sort.field,
    sortOrder: sort.order,
  };
  const members = useQuery(groupUserlistQuery(group.id, params));
  const [selected, setSelected] = useState<ReadonlyMap<string, GroupMember>>(new Map());
  const change = useChangeMemberType(group.id);
  const chosen = [...selected.values()];
  const firstPage = () => setPaging((p) => ({ ...p, start: 1 }));

  const select = (rows: GroupMember[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const m of rows) {
        if (on) next.set(m.username, m);
        else next.delete(m.username);
      }
      return next;
    });

  const changeType = (to: 'admin' | 'member') =>
    change.mutate(
      { names: chosen.map((m) => m.username), to },
      {
        onSuccess: ({ results }) => {
          const failed = results.filter((r) => !r.success).map((r) => r.username);
          notifications.show({
            color: failed.length ? 'orange' : 'green',
            title: to === 'admin' ? 'Managers changed' : 'Members changed',
            message: failed.length
              ? `Not changed: ${failed.join(', ')}.`
              : to === 'admin'
                ? `${plural(results.length, 'member')} now ${results.length === 1 ? 'manages' : 'manage'} the group.`
                : `${plural(results.length, 'manager')} ${results.length === 1 ? 'is now a plain member' : 'are now plain members'}.`,
          });
          setSelected(new Map());
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Nothing changed', message: describeError(error) }),
      },
    );

  return {
    name,
    setName: (value: string) => {
      setNameValue(value);
      firstPage();
    },
    debounced,
    memberType,
    setMemberType: (value: string) => {
      setMemberTypeValue(value);
      firstPage();
    },
    sort,
    setSort: (value: { field: UserlistSortField; order: 'asc' | 'desc' }) => {
      setSortValue(value);
      firstPage();
    },
    paging,
    setPaging,
    members,
    selected,
    select,
    clearSelection: () => setSelected(new Map()),
    chosen,
    changing: change.isPending,
    changeType,
  };
}
