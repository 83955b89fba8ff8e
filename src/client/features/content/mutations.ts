/** Changing items; each mutation declares what it makes stale (every item read shares one key root). */
import { useMutation } from '@tanstack/react-query';
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
import { itemKeys } from '../../api/queries/items.ts';
import { dependencyKeys } from '../../api/queries/dependencies.ts';

/**
 * `references`: the change can alter what uses what, or what a dependency answer shows of an item
 * (its data, sharing, status, owner; adding or deleting it), so the dependency answers are read
 * again too — on portals without the index that brings the browser graph up to date.
 */
function useItemsMutation<V, R>(fn: (v: V) => Promise<R>, { references = true }: { references?: boolean } = {}) {
  return useMutation({
    mutationFn: fn,
    meta: {
      invalidates: [
        // In the background: on portals without the index this rebuilds the browser graph, which can take a while.
        references ? { queryKey: dependencyKeys.all, background: true } : undefined,
        itemKeys.all,
      ],
    },
  });
}

export const useAddItem = (username: string) =>
  useItemsMutation(
    ({ folderId, input, onUploadProgress }: { folderId?: string; input: AddItemInput; onUploadProgress?: (sent: number, total: number) => void }) =>
      addItem(username, folderId, input, { onUploadProgress }),
  );

export const useUpdateItem = (owner: string, itemId: string) =>
  useItemsMutation((fields: ItemFieldsInput & { thumbnail?: File }) => updateItem(owner, itemId, fields));

export const useMoveItem = (owner: string, itemId: string) => useItemsMutation((folder: string) => moveItem(owner, itemId, folder), { references: false });

export const useDeleteItem = () => useItemsMutation(({ owner, itemId }: { owner: string; itemId: string }) => deleteItem(owner, itemId));

export const useProtectItem = (owner: string, itemId: string) =>
  useItemsMutation((protect: boolean) => setItemProtected(owner, itemId, protect), { references: false });

export const useShareItem = (owner: string, itemId: string) =>
  useItemsMutation(async ({ share, unshareGroups }: { share: ShareInput; unshareGroups: string[] }) => {
    const shared = await shareItem(owner, itemId, share);
    const unshared = unshareGroups.length ? await unshareItem(owner, itemId, unshareGroups) : { notUnsharedFrom: [] };
    return { notSharedWith: shared.notSharedWith, notUnsharedFrom: unshared.notUnsharedFrom };
  });

export const useSetContentStatus = (itemId: string) => useItemsMutation((status: ContentStatus | null) => setContentStatus(itemId, status));

export const useAddRelationship = (username: string) => useItemsMutation((input: RelationshipInput) => addRelationship(username, input));

export const useDeleteRelationship = (username: string) => useItemsMutation((input: RelationshipInput) => deleteRelationship(username, input));
