/** How a group's visibility and the member's place in it read. */
import { Badge } from '@mantine/core';
import type { GroupRecord, MemberType } from '../../api/index.ts';
import { membershipOf } from '../../lib/groupPermissions.ts';

const ACCESS = {
  private: { label: 'Members only', color: 'gray' },
  org: { label: 'Organization', color: 'blue' },
  public: { label: 'Everyone', color: 'green' },
} as const;

export function AccessBadge({ access }: { access: GroupRecord['access'] }) {
  const a = ACCESS[access] ?? ACCESS.private;
  return (
    <Badge variant="light" color={a.color} tt="none">
      {a.label}
    </Badge>
  );
}

export const MEMBER_TYPE_LABELS: Record<MemberType, string> = { owner: 'Owner', admin: 'Manager', member: 'Member' };
const MEMBER_TYPE_COLORS: Record<MemberType, string> = { owner: 'grape', admin: 'teal', member: 'blue' };

export function MemberTypeBadge({ type }: { type: MemberType }) {
  return (
    <Badge variant="light" color={MEMBER_TYPE_COLORS[type]} tt="none">
      {MEMBER_TYPE_LABELS[type]}
    </Badge>
  );
}

/** The signed-in member's membership, or a dash. */
export function MembershipBadge({ group }: { group: Pick<GroupRecord, 'userMembership'> }) {
  const type = membershipOf(group);
  return type === 'none' ? <span aria-label="Not a member">—</span> : <MemberTypeBadge type={type} />;
}
