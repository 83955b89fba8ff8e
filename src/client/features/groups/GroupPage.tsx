/**
 * One group: what it is, its owner, managers and members (paged, filtered), and what the member may
 * do with it — edit, add users, remove members, make managers, protect, change its owner, delete. What they may not
 * do stays visible, disabled, with the reason.
 */
import { Anchor, SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { GroupRecord } from '../../api/index.ts';
import { groupQuery } from '../../api/queries/groups.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { HistorySection } from '../../components/HistorySection.tsx';
import { IconArrowLeft, IconPencil, IconUserPlus } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { AddUsersModal } from './AddUsersModal.tsx';
import { ChangeGroupOwnerModal } from './ChangeGroupOwnerModal.tsx';
import { DeleteGroupModal } from './DeleteGroupModal.tsx';
import { GroupAboutCard } from './GroupAboutCard.tsx';
import { GroupContentSection } from './GroupContentSection.tsx';
import { GroupFormModal } from './GroupFormModal.tsx';
import { GroupMembersSection } from './GroupMembersSection.tsx';
import { GroupSettingsCard } from './GroupSettingsCard.tsx';
import { addUsersPermission, editGroupPermission } from '../../lib/groupPermissions.ts';

function BackToGroups() {
  return (
    <Anchor component={Link} to="/groups" size="sm" mb="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <IconArrowLeft size={14} /> Groups
    </Anchor>
  );
}

export default function GroupPage() {
  const { groupId = '' } = useParams();
  const group = useQuery(groupQuery(groupId));
  if (group.isPending) return <LoadingState label="Loading group…" />;
  if (group.isError) {
    return (
      <>
        <BackToGroups />
        <ErrorState error={group.error} title="Could not load the group" onRetry={() => group.refetch()} />
      </>
    );
  }
  return <GroupView group={group.data} />;
}

function GroupView({ group }: { group: GroupRecord }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [changingOwner, setChangingOwner] = useState(false);

  return (
    <>
      <BackToGroups />
      <PageHeader
        title={group.title}
        description={
          <>
            Owned by <strong>{group.owner}</strong>
            {/* memberCount is a local extra: other portals leave it out. */}
            {group.memberCount !== undefined ? ` · ${group.memberCount} member${group.memberCount === 1 ? '' : 's'}` : ''}
          </>
        }
        actions={
          <>
            <GuardedButton
              permission={editGroupPermission(user, group)}
              variant="default"
              leftSection={<IconPencil size={16} />}
              onClick={() => setEditing(true)}
            >
              Edit group
            </GuardedButton>
            <GuardedButton permission={addUsersPermission(user, group)} leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
              Add users
            </GuardedButton>
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md" mb="xl">
        <GroupAboutCard group={group} />
        <GroupSettingsCard group={group} onChangeOwner={() => setChangingOwner(true)} onDelete={() => setDeleting(true)} />
      </SimpleGrid>

      <GroupMembersSection group={group} />
      <GroupContentSection group={group} />
      <HistorySection id={group.id} type="g" name={`the group “${group.title}”`} heading />

      <GroupFormModal opened={editing} onClose={() => setEditing(false)} group={group} />
      <ChangeGroupOwnerModal opened={changingOwner} onClose={() => setChangingOwner(false)} group={group} />
      <AddUsersModal opened={adding} onClose={() => setAdding(false)} group={group} />
      <DeleteGroupModal opened={deleting} onClose={() => setDeleting(false)} group={group} onDeleted={() => navigate('/groups', { replace: true })} />
    </>
  );
}
