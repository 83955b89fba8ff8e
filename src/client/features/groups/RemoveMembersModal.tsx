/** Confirms removing the ticked members from a group, then says who was and was not removed. */
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { describeErrorFully, type GroupMember, type GroupRecord } from '../../api/index.ts';
import { IconAlert } from '../../components/icons.tsx';
import { useRemoveGroupUsers } from './mutations.ts';

export function RemoveMembersModal({
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
