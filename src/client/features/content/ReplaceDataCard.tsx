/**
 * The item page's "Replace the data": a new file for a file item, sent with the item's update
 * (the token in the header, so files of any size the portal takes go in one request), with its
 * progress and, when the portal refuses it or the transfer stops, the reason — the session and the
 * page stay as they are.
 */
import { Alert, Button, FileInput, Group, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, updateItem, type Item } from '../../api/index.ts';
import { IconAlert } from '../../components/icons.tsx';
import { formatBytes } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { editItemPermission } from './permissions.ts';
import { itemKeys } from '../../api/queries/items.ts';

export function ReplaceDataCard({ item }: { item: Item }) {
  const user = useCurrentUser();
  const edit = editItemPermission(user, item);
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ loaded: number; total: number } | null>(null);
  const replace = useMutation({
    mutationFn: (next: File) => updateItem(item.owner, item.id, { file: next }, { onUploadProgress: (loaded, total) => setSent({ loaded, total }) }),
    meta: { invalidates: [itemKeys.all] },
    onSuccess: (_r, next) => {
      setFile(null);
      notifications.show({
        color: 'green',
        title: 'Data replaced',
        message: `The data of “${item.title}” was replaced with ${next.name} (${formatBytes(next.size)}).`,
      });
    },
    onSettled: () => setSent(null),
  });
  const share = sent ? (sent.loaded / Math.max(1, sent.total)) * 100 : 0;
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm" mt="sm">
        Replace the data
      </Text>
      {replace.isError ? (
        <Alert color="red" variant="light" icon={<IconAlert />} title="The data was not replaced" role="alert">
          {describeError(replace.error)}
        </Alert>
      ) : null}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <FileInput
          label="New data file"
          placeholder="Choose a file"
          clearable
          style={{ flex: '1 1 16rem' }}
          disabled={!edit.allowed || replace.isPending}
          description={edit.allowed ? 'The item keeps its id, details, sharing and relationships.' : edit.reason}
          value={file}
          onChange={(f) => {
            replace.reset();
            setFile(f);
          }}
        />
        <Button disabled={!edit.allowed || !file} loading={replace.isPending} onClick={() => file && replace.mutate(file)}>
          Replace the data
        </Button>
      </Group>
      {sent ? (
        <Stack gap={4}>
          <Progress value={share} aria-label="Upload progress" />
          <Text size="xs" c="dimmed" aria-live="polite">
            {`${Math.floor(share)} % sent (${formatBytes(sent.loaded)} of ${formatBytes(sent.total)})`}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
