/** Confirms "Clear all defaults" with a before/after of each default, then clears them. */
import { Alert, Modal, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { describeError } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { NOT_SET, type DefaultsRows } from './describeDefaults.ts';
import { useClearDefaults } from './mutations.ts';

export function ClearDefaultsModal({ opened, onClose, rows }: { opened: boolean; onClose: () => void; rows: DefaultsRows }) {
  const user = useCurrentUser();
  const clear = useClearDefaults(user.orgId);
  const close = () => {
    clear.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Clear all new-member defaults?" size="lg" centered>
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">
            New members then start as Users with the portal's own defaults, in no groups. Members already in the organization keep what they have.
          </Text>
          <Table aria-label="Before and after" verticalSpacing="xs" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Default</Table.Th>
                <Table.Th>Now</Table.Th>
                <Table.Th>After clearing</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.key}>
                  <Table.Td>{r.label}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c={r.value === null ? 'dimmed' : undefined}>
                      {r.value === null ? NOT_SET : typeof r.value === 'string' ? r.value : r.value.join(', ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {NOT_SET}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {clear.isError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The defaults were not cleared" role="alert">
              {describeError(clear.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions
          onCancel={close}
          confirmLabel="Clear all defaults"
          loading={clear.isPending}
          onConfirm={() =>
            clear.mutate(undefined, {
              onSuccess: () => {
                notifications.show({ color: 'green', title: 'Defaults cleared', message: 'No new-member defaults are set.' });
                close();
              },
            })
          }
        />
      </DialogLayout>
    </Modal>
  );
}
