/**
 * One group: what it is, its owner, managers and members (paged, filtered), and what the member may
 * do with it — edit, add users, remove members, make managers, protect, delete. What they may not
 * do stays visible, disabled, with the reason.
 */
import { Alert, Anchor, Badge, Button, Card, Group, List, Modal, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, describeErrorFully, type GroupMember, type GroupRecord, type GroupUserlistParams, type UserlistSortField } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { HistorySection } from '../../components/HistorySection.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconAlert, IconArrowLeft, IconPencil, IconSearch, IconTrash, IconUserPlus } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { formatDate, plural } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AddUsersModal } from './AddUsersModal.tsx';
import { AccessBadge, MembershipBadge, MemberTypeBadge } from './badges.tsx';
import { MEMBERSHIP_ACCESS_WORDS, membershipAccessOf } from './eligibility.ts';
import { GroupContentSection } from './GroupContentSection.tsx';
import { GroupFormModal } from './GroupFormModal.tsx';
import { useChangeMemberType, useDeleteGroup, useRemoveGroupUsers, useSetGroupProtected } from './mutations.ts';
import {
  addUsersPermission,
  changeManagersPermission,
  deleteGroupPermission,
  editGroupPermission,
  protectGroupPermission,
  removeMembersPermission,
} from './permissions.ts';
import { groupQuery, groupUserlistQuery } from '../../api/queries/groups.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';

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

function Setting({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Group>
  );
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

function GroupView({ group }: { group: GroupRecord }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const protect = useSetGroupProtected(group.id);
  const protectPermission = protectGroupPermission(user, group);

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
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="about-heading" style={{ gridColumn: 'span 2' }}>
          <Title order={2} fz="lg" id="about-heading" mb="sm">
            About
          </Title>
          <Stack gap="sm">
            {group.snippet ? <Text fw={500}>{group.snippet}</Text> : null}
            <Text size="sm" c={group.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
              {group.description || 'No description.'}
            </Text>
            {group.tags.length ? (
              <Group gap={6} aria-label="Tags">
                {group.tags.map((t) => (
                  <Badge key={t} variant="outline" color="gray" tt="none">
                    {t}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="settings-heading">
          <Title order={2} fz="lg" id="settings-heading" mb="sm">
            Settings
          </Title>
          <Stack gap={8}>
            <Setting label="Visible to">
              <AccessBadge access={group.access} />
            </Setting>
            <Setting label="You">
              <MembershipBadge group={group} />
            </Setting>
            <Setting label="Who can be in it">
              {/* A portal that leaves membershipAccess out sets no restriction. */}
              <Text size="sm" fw={500} ta="right">
                {MEMBERSHIP_ACCESS_WORDS[membershipAccessOf(group)]}
              </Text>
            </Setting>
            <Setting label="Invitation only">{yesNo(group.isInvitationOnly)}</Setting>
            <Setting label="Only managers share">{yesNo(group.isViewOnly)}</Setting>
            <Setting label="Member list hidden">{yesNo(group.hiddenMembers)}</Setting>
            <Setting label="Members cannot leave">{yesNo(group.leavingDisallowed)}</Setting>
            <Setting label="Created">{formatDate(group.created)}</Setting>
            <Switch
              mt="xs"
              label="Protected from deletion"
              checked={group.protected}
              disabled={!protectPermission.allowed || protect.isPending}
              description={protectPermission.allowed ? undefined : protectPermission.reason}
              onChange={(e) =>
                protect.mutate(e.currentTarget.checked, {
                  onError: (error) => notifications.show({ color: 'red', title: 'Protection not changed', message: describeError(error) }),
                })
              }
            />
            <GuardedButton
              permission={deleteGroupPermission(user, group)}
              variant="default"
              color="red"
              mt="xs"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting(true)}
            >
              Delete group
            </GuardedButton>
          </Stack>
        </Card>
      </SimpleGrid>

      <MembersSection group={group} />
      <GroupContentSection group={group} />
      <HistorySection id={group.id} type="g" name={`the group “${group.title}”`} heading />

      <GroupFormModal opened={editing} onClose={() => setEditing(false)} group={group} />
      <AddUsersModal opened={adding} onClose={() => setAdding(false)} group={group} />
      <DeleteGroupModal opened={deleting} onClose={() => setDeleting(false)} group={group} onDeleted={() => navigate('/groups', { replace: true })} />
    </>
  );
}

const MEMBER_FILTERS = [
  { value: '', label: 'Everyone' },
  { value: 'admins', label: 'Owner and managers' },
  { value: 'member', label: 'Members' },
];

function MembersSection({ group }: { group: GroupRecord }) {
  const user = useCurrentUser();
  const [name, setName] = useState('');
  const [debounced] = useDebouncedValue(name.trim(), 300);
  const [memberType, setMemberType] = useState('');
  const [paging, setPaging] = useState({ start: 1, num: 10 });
  const [sort, setSort] = useState<{ field: UserlistSortField; order: 'asc' | 'desc' }>({ field: 'username', order: 'asc' });
  const params: GroupUserlistParams = {
    start: paging.start,
    num: paging.num,
    name: debounced || undefined,
    memberType: (memberType || undefined) as GroupUserlistParams['memberType'],
    sortField: sort.field,
    sortOrder: sort.order,
  };
  const members = useQuery(groupUserlistQuery(group.id, params));
  const [selected, setSelected] = useState<ReadonlyMap<string, GroupMember>>(new Map());
  const [removing, setRemoving] = useState(false);
  const change = useChangeMemberType(group.id);
  const removePermission = removeMembersPermission(user, group);
  const managersPermission = changeManagersPermission(user, group);
  const chosen = [...selected.values()];

  const select = (rows: GroupMember[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const m of rows) {
        if (on) next.set(m.username, m);
        else next.delete(m.username);
      }
      return next;
    });

  const changeType = (to: 'admin' | 'member') =>
    change.mutate(
      { names: chosen.map((m) => m.username), to },
      {
        onSuccess: ({ results }) => {
          const failed = results.filter((r) => !r.success).map((r) => r.username);
          notifications.show({
            color: failed.length ? 'orange' : 'green',
            title: to === 'admin' ? 'Managers changed' : 'Members changed',
            message: failed.length
              ? `Not changed: ${failed.join(', ')}.`
              : to === 'admin'
                ? `${plural(results.length, 'member')} now ${results.length === 1 ? 'manages' : 'manage'} the group.`
                : `${plural(results.length, 'manager')} ${results.length === 1 ? 'is now a plain member' : 'are now plain members'}.`,
          });
          setSelected(new Map());
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Nothing changed', message: describeError(error) }),
      },
    );

  const columns: DataTableColumn<GroupMember>[] = [
    {
      id: 'username',
      header: 'Username',
      sortField: 'username',
      render: (m) => (
        <Text size="sm" ff="monospace">
          {m.username}
        </Text>
      ),
    },
    { id: 'fullname', header: 'Name', sortField: 'fullname', render: (m) => <Text size="sm">{m.fullName || '—'}</Text> },
    {
      id: 'type',
      header: 'In the group as',
      sortField: 'membertype',
      render: (m) => (
        <Group gap={6} wrap="nowrap">
          <MemberTypeBadge type={m.memberType} />
          {m.orgId && m.orgId !== group.orgId ? (
            <Badge variant="outline" color="orange" size="sm" tt="none">
              Other organization
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { id: 'joined', header: 'Joined', sortField: 'joined', render: (m) => <Text size="sm">{formatDate(m.joined)}</Text> },
  ];

  return (
    <section aria-labelledby="members-heading">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
        <Title order={2} fz="lg" id="members-heading">
          Owner, managers and members
        </Title>
        <Group gap="sm" wrap="wrap">
          <TextInput
            aria-label="Search members of the group"
            placeholder="Username or name"
            type="search"
            leftSection={<IconSearch size={16} />}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setPaging((p) => ({ ...p, start: 1 }));
            }}
            w={220}
          />
          <Select
            aria-label="Show"
            data={MEMBER_FILTERS}
            value={memberType}
            onChange={(v) => {
              setMemberType(v ?? '');
              setPaging((p) => ({ ...p, start: 1 }));
            }}
            allowDeselect={false}
            w={190}
          />
        </Group>
      </Group>
      <Paper withBorder radius="md" px="md" py="xs" mb="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" c={selected.size ? undefined : 'dimmed'} aria-live="polite">
            {selected.size ? `${selected.size} selected` : 'Tick members to remove them or change who manages the group.'}
          </Text>
          <Group gap="xs">
            <GuardedButton
              permission={managersPermission}
              size="xs"
              variant="default"
              disabled={!selected.size || change.isPending}
              onClick={() => changeType('admin')}
            >
              Make managers
            </GuardedButton>
            <GuardedButton
              permission={managersPermission}
              size="xs"
              variant="default"
              disabled={!selected.size || change.isPending}
              onClick={() => changeType('member')}
            >
              Make members
            </GuardedButton>
            <GuardedButton
              permission={removePermission}
              size="xs"
              color="red"
              disabled={!selected.size}
              leftSection={<IconTrash size={14} />}
              onClick={() => setRemoving(true)}
            >
              Remove from group
            </GuardedButton>
          </Group>
        </Group>
      </Paper>
      <DataTable
        label="Group members"
        itemName="members"
        columns={columns}
        rows={members.data?.users}
        rowKey={(m) => m.username}
        loading={members.isPending}
        fetching={members.isPlaceholderData}
        error={members.isError ? members.error : undefined}
        onRetry={() => members.refetch()}
        sort={sort}
        onSortChange={(s) => {
          setSort({ field: s.field as UserlistSortField, order: s.order });
          setPaging((p) => ({ ...p, start: 1 }));
        }}
        paging={members.data ? { start: members.data.start || paging.start, num: paging.num, total: members.data.total } : undefined}
        onPageChange={(start) => setPaging((p) => ({ ...p, start }))}
        onPageSizeChange={(num) => setPaging({ start: 1, num })}
        selection={{ selected: new Set(selected.keys()), onChange: select, rowLabel: (m) => `Select ${m.username}`, disabled: (m) => m.memberType === 'owner' }}
        empty={
          <EmptyPanel
            title={debounced || memberType ? 'Nobody matches' : 'No members'}
            description={debounced || memberType ? 'Try another name or show everyone.' : undefined}
          />
        }
        minWidth={560}
      />
      <RemoveMembersModal
        opened={removing}
        group={group}
        members={chosen}
        onClose={(done) => {
          setRemoving(false);
          if (done) setSelected(new Map());
        }}
      />
    </section>
  );
}

function RemoveMembersModal({
  opened,
  group,
  members,
  onClose,
}: {
  opened: boolean;
  group: GroupRecord;
  members: GroupMember[];
  onClose: (done: boolean) => void;
}) {
  const remove = useRemoveGroupUsers(group.id);
  const close = (done: boolean) => {
    remove.reset();
    onClose(done);
  };
  const outcome = remove.data;
  return (
    <Modal opened={opened} onClose={() => close(!!outcome)} title={`Remove ${members.length} from ${group.title}?`} centered>
      <Stack gap="md">
        {outcome ? (
          <>
            <Text size="sm" role="status">
              {members.length - outcome.notRemoved.length} removed.
              {outcome.notRemoved.length ? ` Not removed: ${outcome.notRemoved.join(', ')}.` : ''}
            </Text>
            {outcome.error ? (
              <Alert color="red" variant="light" icon={<IconAlert />} role="alert">
                {describeErrorFully(outcome.error)}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button onClick={() => close(true)}>Done</Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm">They lose access to what is shared with the group. They can be added again later.</Text>
            <List size="sm">
              {members.slice(0, 10).map((m) => (
                <List.Item key={m.username}>{m.username}</List.Item>
              ))}
              {members.length > 10 ? <List.Item>and {members.length - 10} more</List.Item> : null}
            </List>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(members.map((m) => m.username))}>
                Remove
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}

function DeleteGroupModal({ opened, group, onClose, onDeleted }: { opened: boolean; group: GroupRecord; onClose: () => void; onDeleted: () => void }) {
  const user = useCurrentUser();
  const remove = useDeleteGroup(user.orgId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Delete ${group.title}?`} centered>
      <Stack gap="md">
        <List size="sm" spacing={4}>
          <List.Item>
            The group is removed for good, with its {group.memberCount !== undefined ? `${group.memberCount} ` : ''}memberships; this cannot be undone.
          </List.Item>
          <List.Item>Content shared with it stays with its owners but is no longer shared through it.</List.Item>
          <List.Item>If it is a group new members join by default, it stops being one.</List.Item>
        </List>
        {remove.isError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The group was not deleted" role="alert">
            {describeErrorFully(remove.error)}
          </Alert>
        ) : null}
        <ConfirmActions
          onCancel={close}
          confirmLabel="Delete group"
          loading={remove.isPending}
          onConfirm={() =>
            remove.mutate(group.id, {
              onSuccess: () => {
                notifications.show({ color: 'green', title: 'Group deleted', message: `“${group.title}” was deleted.` });
                close();
                onDeleted();
              },
            })
          }
        />
      </Stack>
    </Modal>
  );
}
