/** The member picker's list: each member found (ticked when chosen), or why there is none, and a hint when more exist. */
import { Combobox, Group, ScrollArea, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { PortalUser } from '../api/index.ts';
import { formatCount } from '../lib/format.ts';
import { IconCheck } from './icons.tsx';
import { sameMember, type PickedMember } from './useMemberPicker.ts';

export function MemberPickerDropdown({
  id,
  members,
  chosen,
  describeMember,
  searching,
  more,
  total,
  status,
}: {
  id: string;
  members: readonly PortalUser[];
  chosen: readonly PickedMember[];
  describeMember?: (member: PortalUser) => ReactNode;
  searching: boolean;
  more: boolean;
  total: number | undefined;
  status: string;
}) {
  const options = members.map((m) => {
    const isChosen = chosen.some((x) => sameMember(x.username, m.username));
    return (
      <Combobox.Option value={m.username} key={m.username} active={isChosen} aria-selected={isChosen}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconCheck size={14} style={{ visibility: isChosen ? 'visible' : 'hidden', flex: 'none', marginTop: 3 }} />
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} component="span">
              {m.fullName || m.username}
            </Text>{' '}
            <Text size="sm" c="dimmed" component="span">
              ({m.username})
            </Text>
            {describeMember ? (
              <Text size="xs" c="dimmed">
                {describeMember(m)}
              </Text>
            ) : null}
          </div>
        </Group>
      </Combobox.Option>
    );
  });

  return (
    <Combobox.Dropdown>
      <Combobox.Options labelledBy={`${id}-label`}>
        <ScrollArea.Autosize mah={280} type="scroll">
          {options.length ? options : <Combobox.Empty>{searching ? 'Searching members…' : status || 'No members to choose from.'}</Combobox.Empty>}
        </ScrollArea.Autosize>
      </Combobox.Options>
      {options.length && (more || searching) ? (
        <Combobox.Footer>
          <Text size="xs" c="dimmed">
            {searching ? 'Searching members…' : `The first ${formatCount(members.length)} of ${formatCount(total!)}: type more of a name to narrow the list.`}
          </Text>
        </Combobox.Footer>
      ) : null}
    </Combobox.Dropdown>
  );
}
