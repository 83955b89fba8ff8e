/** Restoring and deleting for good; both refresh every item read (Content, the bin, dependencies). */
import { useMutation } from '@tanstack/react-query';
import { deleteItemPermanently, restoreItem, type RecycledItem } from '../../api/index.ts';
import { itemKeys } from '../../api/queries/items.ts';
import { dependencyKeys } from '../../api/queries/dependencies.ts';

const invalidates = [{ queryKey: dependencyKeys.all, background: true }, itemKeys.all];

/** Back where it was when that folder still exists (the portal answers an error otherwise, and the root is tried). */
export const useRestoreItem = () =>
  useMutation({
    mutationFn: async (item: RecycledItem) => {
      const answer = await restoreItem(item.owner, item.id, item.ownerFolder).catch(() => restoreItem(item.owner, item.id));
      if (!answer.success) throw new Error(`Could not restore ${item.title || item.id}.`);
      return answer;
    },
    meta: { invalidates },
  });

export const useDeletePermanently = () =>
  useMutation({ mutationFn: (item: RecycledItem) => deleteItemPermanently(item.owner, item.id), meta: { invalidates } });
