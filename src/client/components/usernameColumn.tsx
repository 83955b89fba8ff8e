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
