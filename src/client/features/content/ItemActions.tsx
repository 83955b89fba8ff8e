/**
 * The item's actions beside its header: delete protection, change owner (through the transfer
 * wizard) and delete, the deletion confirmed with what depends on the item.
 */
import { Modal, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError, type Item } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconTrash, IconUserPlus } from '../../components/icons.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { transferItemsHref } from '../../lib/transfer.ts';
import { DeleteFate } from './BulkDeleteSummary.tsx';
import { useDeleteItem, useProtectItem } from './mutations.ts';
import { deleteItemPermission, editItemPermission, reassignItemPermission } from './permissions.ts';

export function ItemActions({ item }: { item: Item }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const protect = useProtectItem(item.owner, item.id);
  const remove = useDeleteItem();
  const [confirming, setConfirming] = useState(false);
  const edit = editItemPermission(user, item);
  const del = deleteItemPermission(user, item);
  const reassign = reassignItemPermission(user, item);
  return (
    <Stack gap="xs" align="flex-end">
      <Switch
        label="Delete protection"
        checked={item.protected}
        disabled={!edit.allowed || protect.isPending}
        onChange={(e) =>
          protect.mutate(e.currentTarget.checked, {
            onError: (err) => notifications.show({ color: 'red', title: 'Protection not changed', message: describeError(err) }),
          })
        }
      />
      {/* The transfer wizard, with this item ticked: it checks the new owner before anything moves. */}
      <GuardedButton
        permission={reassign}
        variant="default"
        leftSection={<IconUserPlus size={16} />}
        onClick={() => void navigate(transferItemsHref(item.owner, [item.id]))}
      >
        Change owner
      </GuardedButton>
      <GuardedButton permission={del} color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
        Delete item
      </GuardedButton>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Delete “${item.title}”?`} size="lg" centered>
        <DialogLayout>
          <DialogScroll>
            <DeleteFate />
            {confirming ? <ImpactCheckSlot items={[item]} change={{ kind: 'delete' }} /> : null}
          </DialogScroll>
          <ConfirmActions
            onCancel={() => setConfirming(false)}
            confirmLabel="Delete"
            loading={remove.isPending}
            onConfirm={() =>
              remove.mutate(
                { owner: item.owner, itemId: item.id },
                {
                  onSuccess: () => {
                    notifications.show({ color: 'green', title: 'Item deleted', message: `“${item.title}” was deleted.` });
                    void navigate('/content');
                  },
                  onError: (err) => {
                    setConfirming(false);
                    notifications.show({ color: 'red', title: 'The item was not deleted', message: describeError(err) });
                  },
                },
              )
            }
          />
        </DialogLayout>
      </Modal>
    </Stack>
  );
}
