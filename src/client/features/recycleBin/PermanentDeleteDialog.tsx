/** Confirms deleting recycled items for good: nothing brings them back afterwards. */
import { List, Modal, Text } from '@mantine/core';
import type { RecycledItem } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';

export function PermanentDeleteDialog({ items, onCancel, onConfirm }: { items: RecycledItem[]; onCancel: () => void; onConfirm: () => void }) {
  const n = items.length;
  return (
    <Modal opened={n > 0} onClose={onCancel} title={`Delete ${n} item${n === 1 ? '' : 's'} permanently`} centered>
      <DialogLayout>
        <DialogScroll>
          <Text size="sm">Their data, resources and sharing are removed for good; they cannot be restored.</Text>
          <List size="sm" spacing={2} withPadding>
            {items.slice(0, 10).map((i) => (
              <List.Item key={i.id}>
                {i.title || i.id} ({i.owner})
              </List.Item>
            ))}
            {n > 10 ? <List.Item>…and {n - 10} more</List.Item> : null}
          </List>
        </DialogScroll>
        <ConfirmActions onCancel={onCancel} onConfirm={onConfirm} confirmLabel={`Delete ${n} permanently`} />
      </DialogLayout>
    </Modal>
  );
}
