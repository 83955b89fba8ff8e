/** Transferring items: the run is a mutation that declares what it makes stale. */
import { useMutation } from '@tanstack/react-query';
import { runTransfer, TRANSFER_INVALIDATES } from '../../lib/transfer.ts';

export interface TransferInput {
  ids: readonly string[];
  target: string;
  folder: string;
  onProgress: (done: number) => void;
}

/** reassignItems for the chosen ids (the API sends 100 a request); each item answers for itself. */
export function useTransferItems(from: string) {
  return useMutation({
    mutationFn: ({ ids, target, folder, onProgress }: TransferInput) => runTransfer(from, ids, target, folder, onProgress),
    meta: { invalidates: TRANSFER_INVALIDATES },
  });
}
