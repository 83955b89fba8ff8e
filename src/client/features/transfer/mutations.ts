/** Transferring items: the run is a mutation that declares what it makes stale. */
import { useMutation } from '@tanstack/react-query';
import { dependencyKeys } from '../../api/queries/dependencies.ts';
import { itemKeys } from '../../api/queries/items.ts';
import { runTransfer } from '../../lib/transfer.ts';

export interface TransferInput {
  ids: readonly string[];
  target: string;
  folder: string;
  onProgress: (done: number) => void;
}

/** What any transfer of items makes stale (the wizard's and the delete-member plan's). */
export const TRANSFER_INVALIDATES = [
  // Owners (and a sharing the new owner could not keep) show in the dependency answers: in the background, as a browser graph rebuilds.
  { queryKey: dependencyKeys.all, background: true },
  itemKeys.all,
];

/** reassignItems for the chosen ids (the API sends 100 a request); each item answers for itself. */
export function useTransferItems(from: string) {
  return useMutation({
    mutationFn: ({ ids, target, folder, onProgress }: TransferInput) => runTransfer(from, ids, target, folder, onProgress),
    meta: { invalidates: TRANSFER_INVALIDATES },
  });
}
