/** The access the guest gets to each workspace of the collaboration (or leaving it out), as a named group with its error. */
import { Select, Table, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { WORKSPACE_ACCESS } from '../../../shared/contract/collaborations.ts';
import type { WorkspaceRecord } from '../../api/index.ts';
import { sentence } from '../../lib/forms.ts';
import { ACCESS_LABELS } from './schemas.ts';
import type { InviteFormApi } from './useInviteForm.ts';

export function InviteWorkspaceAccess({
  form,
  workspaces,
  workspacesError,
  again,
}: {
  form: InviteFormApi;
  workspaces: readonly WorkspaceRecord[];
  workspacesError: string | undefined;
  /** Invited again: the first workspace's choice takes the dialog's first focus. */
  again: boolean;
}) {
  return (
    <div role="group" aria-labelledby="invite-workspaces-label" aria-describedby={workspacesError ? 'invite-workspaces-error' : undefined}>
      <Text id="invite-workspaces-label" size="sm" fw={500}>
        Workspaces shared with the guest
      </Text>
      <Text size="xs" c="dimmed" mb={6}>
        For each workspace, whether the guest sends content to it, receives it, or both — or leave the workspace out.
      </Text>
      {workspaces.length ? (
        <Table verticalSpacing={4} aria-label="Workspaces shared with the guest">
          <Table.Tbody>
            {workspaces.map((w, i) => (
              <Table.Tr key={w.id}>
                <Table.Th scope="row" fw={500}>
                  <Text size="sm">{w.name}</Text>
                </Table.Th>
                <Table.Td w={220}>
                  <Controller
                    control={form.control}
                    name={`workspaces.${w.id}`}
                    render={({ field }) => (
                      <Select
                        aria-label={`Guest access to ${w.name}`}
                        allowDeselect={false}
                        data={[{ value: 'none', label: 'Left out' }, ...WORKSPACE_ACCESS.map((a) => ({ value: a, label: ACCESS_LABELS[a] }))]}
                        value={field.value}
                        onChange={(v) => field.onChange(v ?? 'none')}
                        data-autofocus={again && i === 0 ? true : undefined}
                      />
                    )}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="orange.8">
          This collaboration has no workspace yet: a guest is invited to workspaces, so add one first.
        </Text>
      )}
      {workspacesError ? (
        <Text id="invite-workspaces-error" size="sm" c="red.8" mt={4}>
          {sentence(workspacesError)}
        </Text>
      ) : null}
    </div>
  );
}
