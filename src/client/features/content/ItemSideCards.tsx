/** The cards beside the item's details: its thumbnail (changed by an editor) and, for the owner, its folder. */
import { FileInput, Paper, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { describeError, type Item } from '../../api/index.ts';
import { foldersQuery } from '../../api/queries/items.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ItemThumbnail } from './badges.tsx';
import { useMoveItem, useUpdateItem } from './mutations.ts';
import { editItemPermission } from './permissions.ts';

export function ThumbnailCard({ item }: { item: Item }) {
  const user = useCurrentUser();
  const update = useUpdateItem(item.owner, item.id);
  const edit = editItemPermission(user, item);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Thumbnail
        </Text>
        <ItemThumbnail item={item} size={200} />
        <FileInput
          label="Change the thumbnail"
          placeholder="PNG, JPEG, GIF or WebP"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={!edit.allowed || update.isPending}
          description={edit.allowed ? undefined : edit.reason}
          value={null}
          onChange={(file) =>
            file &&
            update.mutate(
              { thumbnail: file },
              {
                onSuccess: () => notifications.show({ color: 'green', title: 'Thumbnail changed', message: `The thumbnail of “${item.title}” was changed.` }),
                onError: (err) => notifications.show({ color: 'red', title: 'Thumbnail not changed', message: describeError(err) }),
              },
            )
          }
        />
      </Stack>
    </Paper>
  );
}

export function FolderCard({ item }: { item: Item }) {
  const user = useCurrentUser();
  const folders = useQuery(foldersQuery(user.username));
  const move = useMoveItem(item.owner, item.id);
  return (
    <Paper withBorder p="md" radius="md">
      <Select
        label="Folder"
        data={[{ value: '/', label: 'Root folder' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.title }))]}
        value={item.ownerFolder ?? '/'}
        allowDeselect={false}
        disabled={move.isPending}
        onChange={(v) =>
          v &&
          move.mutate(v, {
            onSuccess: () => notifications.show({ color: 'green', title: 'Item moved', message: `“${item.title}” was moved.` }),
            onError: (err) => notifications.show({ color: 'red', title: 'The item was not moved', message: describeError(err) }),
          })
        }
      />
    </Paper>
  );
}
