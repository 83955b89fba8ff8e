/**
 * One member (`/members/<username>`): profile, role, user type, status, dates, groups, content and
 * history, and every action on them (MemberActions). Deleting goes through the bulk action's
 * preview and result, so a refusal (they still own items or groups) reads the same as in bulk.
 */
import { Anchor, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../../api/index.ts';
import { userQuery } from '../../api/queries/users.ts';
import { HistorySection, mayReadHistory } from '../../components/HistorySection.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { BulkMembersModal } from './bulk/BulkMembersModal.tsx';
import { ChangeRoleModal } from './ChangeRoleModal.tsx';
import { ChangeUserTypeModal } from './ChangeUserTypeModal.tsx';
import { MemberActions } from './MemberActions.tsx';
import { MemberFacts } from './MemberFacts.tsx';
import { MemberExpiry } from './lifecycle/MemberExpiry.tsx';
import { rolesQuery } from './queries.ts';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';

export default function MemberPage({ username }: { username: string }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const member = useQuery(userQuery(username));
  const roles = useQuery(rolesQuery(user.orgId));
  const customRoles = roles.data?.roles;
  const rolesNote = roles.isError ? `Custom roles could not be loaded (${describeError(roles.error)}), so only the base roles are offered.` : undefined;
  const [dialog, setDialog] = useState<'role' | 'userType' | 'password' | 'delete' | null>(null);

  const back = (
    <Anchor component={Link} to="/members" size="sm">
      ← All members
    </Anchor>
  );
  if (member.isPending) return <LoadingState label={`Loading ${username}…`} minHeight={300} />;
  // A refetch that fails keeps the member read before (a delete's results stay on screen until Done).
  if (member.isError && !member.data)
    return (
      <Stack gap="md">
        {back}
        <ErrorState error={member.error} title={`The member ${username} could not be read`} onRetry={() => member.refetch()} />
      </Stack>
    );
  const m = member.data;
  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title={m.fullName || m.username}
        description={m.username}
        actions={
          <MemberActions
            member={m}
            customRoles={customRoles}
            onChangeRole={() => setDialog('role')}
            onChangeUserType={() => setDialog('userType')}
            onResetPassword={() => setDialog('password')}
            onDelete={() => setDialog('delete')}
          />
        }
      />
      <MemberFacts member={m} customRoles={customRoles} />
      <MemberExpiry username={m.username} />
      {mayReadHistory(user) ? <HistorySection id={m.username} type="u" name={`the member ${m.username}`} heading /> : null}
      <ChangeRoleModal member={dialog === 'role' ? m : null} onClose={() => setDialog(null)} customRoles={customRoles} rolesNote={rolesNote} />
      <ChangeUserTypeModal member={dialog === 'userType' ? m : null} onClose={() => setDialog(null)} customRoles={customRoles} />
      <ResetPasswordModal member={dialog === 'password' ? m : null} onClose={() => setDialog(null)} />
      <BulkMembersModal
        kind={dialog === 'delete' ? 'delete' : null}
        target={{ kind: 'rows', members: [m] }}
        onClose={(finished) => {
          setDialog(null);
          // Gone: back to the list. Refused: the page stays, with what they own below.
          if (finished) void member.refetch().then((r) => r.isError && navigate('/members'));
        }}
        customRoles={customRoles}
        rolesNote={rolesNote}
      />
    </Stack>
  );
}
