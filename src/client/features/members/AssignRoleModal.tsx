/**
 * "Assign role" to several members at once: pick the role and see what will change for each, run
 * it with progress, then one result per member — success or the portal's reason — and retry the
 * failed ones.
 */
import { Alert, Badge, Button, Group, Modal, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError, type PortalUser, type RoleRecord } from '../../api/index.ts';
import { BulkProgress, BulkResultTable, type BulkResultRow } from '../../components/Bulk.tsx';
import { IconAlert, IconRefresh } from '../../components/icons.tsx';
import { isBaseRole, roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useAssignRole } from './mutations.ts';
import { assignRolePermission, changeRoleOfPermission } from './permissions.ts';
import { roleChoices, toSelectData } from './roleChoices.ts';
import { DialogFooter } from '../../components/DialogFooter.tsx';

export interface AssignRoleModalProps {
  opened: boolean;
  members: readonly PortalUser[];
  /** `finished`: a run happened (the selection has served its purpose). */
  onClose: (finished: boolean) => void;
  customRoles: readonly RoleRecord[] | undefined;
  rolesNote?: string;
}

export function AssignRoleModal({ opened, members, onClose, customRoles, rolesNote }: AssignRoleModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={() => onClose(false)}
      title={`Assign a role to ${members.length} member${members.length === 1 ? '' : 's'}`}
      size="xl"
      centered
    >
      {opened ? <AssignRole members={members} onClose={onClose} customRoles={customRoles} rolesNote={rolesNote} /> : null}
    </Modal>
  );
}

type Result = { ok: boolean; detail: string };

function AssignRole({ members, onClose, customRoles, rolesNote }: Omit<AssignRoleModalProps, 'opened'>) {
  const user = useCurrentUser();
  const assign = useAssignRole(user.orgId, user.username);
  const [role, setRole] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<Map<string, Result> | null>(null);
  const known = customRoles ?? [];
  const newLabel = (r: string) => roleLabel(isBaseRole(r) ? { role: r } : { role: 'org_user', roleId: r }, known);
  const current = (m: PortalUser) => m.roleId ?? m.role;

  const run = (usernames: string[], chosen: string) => {
    setProgress({ done: 0, total: usernames.length });
    assign.mutate(
      { usernames, role: chosen, onProgress: (done, total) => setProgress({ done, total }) },
      {
        onSuccess: (outcomes) => {
          const next = new Map(results ?? []);
          // Members who already held the role need no call.
          for (const m of members) if (!next.has(m.username) && current(m) === chosen) next.set(m.username, { ok: true, detail: 'Already had this role' });
          for (const o of outcomes) next.set(o.item, o.ok ? { ok: true, detail: `Now ${newLabel(chosen)}` } : { ok: false, detail: describeError(o.error) });
          setResults(next);
          setProgress(null);
          const failed = [...next.values()].filter((r) => !r.ok).length;
          notifications.show({
            color: failed ? 'orange' : 'green',
            title: failed ? 'Role assigned to some members' : 'Role assigned',
            message: failed
              ? `${failed} member${failed === 1 ? ' was' : 's were'} not changed; the results say why.`
              : `${newLabel(chosen)} for ${next.size} member${next.size === 1 ? '' : 's'}.`,
          });
        },
        onError: (error) => {
          setProgress(null);
          notifications.show({ color: 'red', title: 'Role not assigned', message: describeError(error) });
        },
      },
    );
  };

  if (progress) return <BulkProgress label={`Assigning ${newLabel(role!)}`} done={progress.done} total={progress.total} />;

  if (results) {
    const failed = members.filter((m) => results.get(m.username)?.ok === false).map((m) => m.username);
    const rows: BulkResultRow[] = members.map((m) => ({
      key: m.username,
      name: (
        <Text size="sm">
          {m.fullName || m.username}{' '}
          <Text span size="xs" c="dimmed" ff="monospace">
            {m.username}
          </Text>
        </Text>
      ),
      ok: results.get(m.username)?.ok ?? false,
      detail: results.get(m.username)?.detail,
    }));
    return (
      <Stack gap="md">
        <BulkResultTable label="Role assignment results" rows={rows} nameHeader="Member" successLabel="Changed" failureLabel="Not changed" />
        <DialogFooter>
          {failed.length ? (
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => run(failed, role!)}>
              Retry failed ({failed.length})
            </Button>
          ) : null}
          <Button onClick={() => onClose(true)}>Done</Button>
        </DialogFooter>
      </Stack>
    );
  }

  const toChange = role ? members.filter((m) => current(m) !== role) : [];
  const assignable = role ? assignRolePermission(user, role, customRoles) : null;
  return (
    <Stack gap="md">
      <Select
        label="Role"
        placeholder="Pick the role to give"
        data={toSelectData(roleChoices(user, customRoles))}
        value={role}
        onChange={setRole}
        allowDeselect={false}
        searchable
        data-autofocus
      />
      {rolesNote ? (
        <Text size="xs" c="dimmed">
          {rolesNote}
        </Text>
      ) : null}
      {assignable && !assignable.allowed ? (
        <Alert color="orange" variant="light" icon={<IconAlert />} role="status">
          {assignable.reason} The portal will refuse it.
        </Alert>
      ) : null}
      <ScrollArea.Autosize mah={320} type="auto">
        <Table aria-label="Preview" verticalSpacing={6} striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Current role</Table.Th>
              <Table.Th>New role</Table.Th>
              <Table.Th>Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => {
              const same = role !== null && current(m) === role;
              const allowed = changeRoleOfPermission(user, m);
              return (
                <Table.Tr key={m.username}>
                  <Table.Td>
                    <Text size="sm">{m.fullName || m.username}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {m.username}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{roleLabel(m, known)}</Text>
                  </Table.Td>
                  <Table.Td>
                    {role ? (
                      <Badge variant="light" color={same ? 'gray' : 'blue'} tt="none">
                        {newLabel(role)}
                      </Badge>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c={allowed.allowed ? 'dimmed' : 'orange'}>
                      {same ? 'Already has this role' : !allowed.allowed ? `${allowed.reason} The portal will likely refuse it.` : ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      <DialogFooter justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {role
            ? `${toChange.length} will change, ${members.length - toChange.length} already ${members.length - toChange.length === 1 ? 'has' : 'have'} it.`
            : 'Pick a role to see what changes.'}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={() => onClose(false)}>
            Cancel
          </Button>
          <Button
            disabled={!role}
            onClick={() =>
              run(
                toChange.map((m) => m.username),
                role!,
              )
            }
          >
            Assign role
          </Button>
        </Group>
      </DialogFooter>
    </Stack>
  );
}
