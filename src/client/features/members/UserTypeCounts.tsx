/**
 * How many members of each user type match the other filters: one `num=0` count a user type (the
 * portal answers exact totals cheaply). Choosing one filters the list by it; choosing it again clears it.
 */
import { Button, Group, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { ListMembersParams } from '../../api/index.ts';
import { memberCountQuery } from '../../api/queries/users.ts';
import { formatCount } from '../../lib/format.ts';
import { LICENSE_LABELS, USER_LICENSE_TYPES } from '../../lib/licenses.ts';

export interface UserTypeCountsProps {
  orgId: string;
  /** The list's filters; the user type among them is what the counts choose. */
  filters: Omit<ListMembersParams, 'start' | 'num'>;
  selected: string;
  onSelect: (userType: string) => void;
}

export function UserTypeCounts({ orgId, filters, selected, onSelect }: UserTypeCountsProps) {
  // Sorting does not change a count: left out, so a new sort asks nothing again.
  const { userLicenseType: _chosen, sortField: _f, sortOrder: _o, ...others } = filters;
  const counts = useQueries({ queries: USER_LICENSE_TYPES.map((t) => memberCountQuery(orgId, { ...others, userLicenseType: t })) });
  return (
    <Group gap={6} role="group" aria-label="Members by user type" wrap="wrap">
      <Text size="xs" c="dimmed" aria-hidden>
        By user type
      </Text>
      {USER_LICENSE_TYPES.map((t, i) => {
        const n = counts[i].data;
        // Types nobody holds are left out, unless chosen (so the choice can be undone).
        if (n === 0 && selected !== t) return null;
        return (
          <Button
            key={t}
            size="compact-sm"
            variant={selected === t ? 'filled' : 'light'}
            aria-pressed={selected === t}
            onClick={() => onSelect(selected === t ? '' : t)}
          >
            {LICENSE_LABELS[t]}
            <Text span size="xs" ml={6} fw={700}>
              {n === undefined ? '…' : formatCount(n)}
            </Text>
          </Button>
        );
      })}
    </Group>
  );
}
