/** The columns naming a member in tables: sortable and in monospace, as usernames are shown everywhere. */
import { Text } from '@mantine/core';
import type { DataTableColumn } from './DataTable.tsx';

function memberNameColumn<T, K extends keyof T & string>(field: K, header: string): DataTableColumn<T> {
  return {
    id: field,
    header,
    sortField: field,
    render: (row) => (
      <Text size="sm" ff="monospace">
        {String(row[field])}
      </Text>
    ),
  };
}

/** The Username column of every table of people (members, a group's members). */
export const usernameColumn = <T extends { username: string }>() => memberNameColumn<T, 'username'>('username', 'Username');

/** The Owner column of every table of owned things (items, groups). */
export const ownerColumn = <T extends { owner: string }>() => memberNameColumn<T, 'owner'>('owner', 'Owner');
