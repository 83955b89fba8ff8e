/**
 * What can be done to one member from their page, each disabled with the reason when the signed-in
 * member's role does not allow it: change role, change user type, disable or enable, transfer
 * content, delete. Resetting a password is not offered: no documented operation resets another
 * member's password on every portal.
 */
import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import type { PortalUser } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { transferPermission } from './MemberRowActions.tsx';
import { changeRoleOfPermission, changeUserTypesPermission, deleteMemberPermission, disableMemberPermission } from './permissions.ts';
import { useConfirmMemberStatus } from './useConfirmMemberStatus.tsx';

export interface MemberActionsProps {
  member: PortalUser;
  onChangeRole: () => void;
  onChangeUserType: () => void;
  onDelete: () => void;
}

export function MemberActions({ member: m, onChangeRole, onChangeUserType, onDelete }: MemberActionsProps) {
  const user = useCurrentUser();
  const confirmStatus = useConfirmMemberStatus(user.orgId);
  const transfer = transferPermission(user, m);
  return (
    <Group gap="xs" wrap="wrap">
      <GuardedButton permission={changeRoleOfPermission(user, m)} variant="default" size="sm" onClick={onChangeRole}>
        Change role
      </GuardedButton>
      <GuardedButton permission={changeUserTypesPermission(user)} variant="default" size="sm" onClick={onChangeUserType}>
        Change user type
      </GuardedButton>
      <GuardedButton permission={disableMemberPermission(user, m)} variant="default" size="sm" onClick={() => confirmStatus(m.username, !m.disabled)}>
        {m.disabled ? 'Enable account' : 'Disable account'}
      </GuardedButton>
      {transfer.allowed ? (
        <Button component={Link} to={`/members/transfer?from=${encodeURIComponent(m.username)}`} variant="default" size="sm">
          Transfer content
        </Button>
      ) : (
        <GuardedButton permission={transfer} variant="default" size="sm">
          Transfer content
        </GuardedButton>
      )}
      <GuardedButton permission={deleteMemberPermission(user, m)} color="red" variant="light" size="sm" onClick={onDelete}>
        Delete member
      </GuardedButton>
    </Group>
  );
}
