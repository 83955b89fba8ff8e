/** The Username column of every table of people (members, a group's members): sortable, in monospace. */
import { Text } from '@mantine/core';
import type { DataTableColumn } from './DataTable.tsx';

export function usernameColumn<T extends { username: string }>(): DataTableColumn<T> {
  return {
    id: 'username',
    header: 'Username',
    sortField: 'username',
    render: (m) => (
      <Text size="sm" ff="monospace">
        {m.username}
      </Text>
    ),
  };
}

/** The sortable Owner column of every table of owned things (items, groups), in monospace like a username. */
export function ownerColumn<T extends { owner: string }>(): DataTableColumn<T> {
  return {
    id: 'owner',
    header: 'Owner',
    sortField: 'owner',
    render: (row) => (
      <Text size="sm" ff="monospace">
        {row.owner}
      </Text>
    ),
  };
}
