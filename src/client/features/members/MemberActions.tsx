/**
 * What can be done to one member from their page, each disabled with the reason when the signed-in
 * member's role does not allow it: change role, change user type, disable or enable, transfer
 * content, reset the password (Update User's `password`), delete.
 */
import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import {
  changeRoleOfPermission,
  changeUserTypesPermission,
  deleteMemberPermission,
  disableMemberPermission,
  resetPasswordPermission,
  transferPermission,
} from './permissions.ts';
import { useConfirmMemberStatus } from './useConfirmMemberStatus.tsx';

export interface MemberActionsProps {
  member: PortalUser;
  onChangeRole: () => void;
  onChangeUserType: () => void;
  onResetPassword: () => void;
  onDelete: () => void;
  customRoles: readonly RoleRecord[] | undefined;
}

export function MemberActions({ member: m, onChangeRole, onChangeUserType, onResetPassword, onDelete, customRoles }: MemberActionsProps) {
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
      <GuardedButton permission={resetPasswordPermission(user, m, customRoles)} variant="default" size="sm" onClick={onResetPassword}>
        Reset password
      </GuardedButton>
      <GuardedButton permission={deleteMemberPermission(user, m)} color="red" variant="light" size="sm" onClick={onDelete}>
        Delete member
      </GuardedButton>
    </Group>
  );
}
