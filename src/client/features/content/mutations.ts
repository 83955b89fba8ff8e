/** Changing items; each mutation invalidates what it changes (every item read shares one key root). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  addItem,
  addRelationship,
  deleteItem,
  deleteRelationship,
  moveItem,
  setContentStatus,
  setItemProtected,
  shareItem,
  unshareItem,
  updateItem,
  type AddItemInput,
  type ContentStatus,
  type ItemFieldsInput,
  type RelationshipInput,
  type ShareInput,
} from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

function useItemsMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.items }) });
}

export const useAddItem = (username: string) =>
  useItemsMutation(
    ({ folderId, input, onUploadProgress }: { folderId?: string; input: AddItemInput; onUploadProgress?: (sent: number, total: number) => void }) =>
      addItem(username, folderId, input, { onUploadProgress }),
  );

export const useUpdateItem = (owner: string, itemId: string) =>
  useItemsMutation((fields: ItemFieldsInput & { thumbnail?: File }) => updateItem(owner, itemId, fields));

export const useMoveItem = (owner: string, itemId: string) => useItemsMutation((folder: string) => moveItem(owner, itemId, folder));

export const useDeleteItem = () => useItemsMutation(({ owner, itemId }: { owner: string; itemId: string }) => deleteItem(owner, itemId));

export const useProtectItem = (owner: string, itemId: string) => useItemsMutation((protect: boolean) => setItemProtected(owner, itemId, protect));

export const useShareItem = (owner: string, itemId: string) =>
  useItemsMutation(async ({ share, unshareGroups }: { share: ShareInput; unshareGroups: string[] }) => {
    const shared = await shareItem(owner, itemId, share);
    const unshared = unshareGroups.length ? await unshareItem(owner, itemId, unshareGroups) : { notUnsharedFrom: [] };
    return { notSharedWith: shared.notSharedWith, notUnsharedFrom: unshared.notUnsharedFrom };
  });

export const useSetContentStatus = (itemId: string) => useItemsMutation((status: ContentStatus | null) => setContentStatus(itemId, status));

export const useAddRelationship = (username: string) => useItemsMutation((input: RelationshipInput) => addRelationship(username, input));

export const useDeleteRelationship = (username: string) => useItemsMutation((input: RelationshipInput) => deleteRelationship(username, input));
