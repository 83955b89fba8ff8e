/**
 * What can be done with the ticked items: transfer them to another member (the transfer wizard
 * checks each first), or delete them — previewed, run with progress, reported per item, and
 * "retry failed" for the ones the portal refused.
 */
import { Alert, Button, Group, List, Modal, Paper, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { describeError, type Item } from '../../api/index.ts';
import { BulkProgress, BulkResultTable, RetryFailedButton, type BulkResultRow } from '../../components/Bulk.tsx';
import { IconTrash } from '../../components/icons.tsx';
import { runBulk } from '../../api/index.ts';
import { transferItemsHref } from '../../lib/transfer.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useDeleteItem } from './mutations.ts';
import { deleteItemPermission } from './permissions.ts';
import { BulkDeleteSummary, needsTypedCount, useRecycleBin } from './BulkDeleteSummary.tsx';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { CopyToDialogSlot, useCopyAvailable } from '../../components/CopySlot.tsx';

export interface ContentSelectionBarProps {
  selected: Item[];
  onClear: () => void;
  /** Every selected item was deleted and the results dialog closed: the bar (and the button that opened the dialog) is gone. */
  onDeleted: () => void;
}

export function ContentSelectionBar({ selected, onClear, onDeleted }: ContentSelectionBarProps) {
  const [deleting, setDeleting] = useState(false);
  const [copying, setCopying] = useState(false);
  const copyAvailable = useCopyAvailable();
  // The results stay on screen until closed (clearing the selection at once would take the dialog away).
  const allDeleted = useRef(false);
  const closeDelete = () => {
    setDeleting(false);
    if (allDeleted.current) {
      allDeleted.current = false;
      onDeleted();
    }
  };
  if (!selected.length) return null;
  const owners = [...new Set(selected.map((i) => i.owner))];
  const ids = selected.map((i) => i.id);
  const transferHref = owners.length === 1 ? transferItemsHref(owners[0], ids) : undefined;
  return (
    <Paper withBorder p="xs" mb="sm" radius="md" bg="var(--mantine-primary-color-light)">
      <Group justify="space-between">
        <Text size="sm" fw={600} role="status">
          {selected.length} selected
        </Text>
        <Group gap="xs">
          {transferHref ? (
            <Button component={Link} to={transferHref} size="xs" variant="default">
              Transfer ownership…
            </Button>
          ) : (
            <Button size="xs" variant="default" data-disabled aria-disabled="true" title="Select the items of one owner to transfer them together.">
              Transfer ownership…
            </Button>
          )}
          {copyAvailable ? (
            <Button size="xs" variant="default" onClick={() => setCopying(true)}>
              Copy to…
            </Button>
          ) : null}
          <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} onClick={() => setDeleting(true)}>
            Delete…
          </Button>
          <Button size="xs" variant="subtle" onClick={onClear}>
            Clear selection
          </Button>
        </Group>
      </Group>
      <CopyToDialogSlot items={selected} opened={copying} onClose={() => setCopying(false)} />
      <Modal opened={deleting} onClose={closeDelete} title={`Delete ${selected.length} item${selected.length === 1 ? '' : 's'}`} size="lg" centered>
        {deleting ? (
          <BulkDelete
            items={selected}
            onAllDeleted={() => {
              allDeleted.current = true;
            }}
            onClose={closeDelete}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

function BulkDelete({ items, onAllDeleted, onClose }: { items: Item[]; onAllDeleted: () => void; onClose: () => void }) {
  const user = useCurrentUser();
  const remove = useDeleteItem();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<BulkResultRow[] | null>(null);
  const [typed, setTyped] = useState('');
  const recycles = useRecycleBin();
  const blocked = items.map((item) => ({ item, permission: deleteItemPermission(user, item) })).filter((x) => !x.permission.allowed);

  const run = async (targets: Item[]) => {
    setResults(null);
    const outcomes = await runBulk(targets, (item) => remove.mutateAsync({ owner: item.owner, itemId: item.id }), {
      concurrency: 3,
      onProgress: (done, total) => setProgress({ done, total }),
    });
    setProgress(null);
    const rows = outcomes.map((o) => ({
      key: o.item.id,
      name: o.item.title || o.item.id,
      ok: o.ok,
      detail: o.ok ? (recycles ? 'Deleted (in the recycle bin)' : 'Deleted') : describeError(o.error),
    }));
    setResults(rows);
    if (rows.every((r) => r.ok)) onAllDeleted();
  };

  // The confirm button is gone once the run starts: the progress, then the counts, take focus.
  if (progress) return <BulkProgress label="Deleting items" done={progress.done} total={progress.total} autoFocus />;
  if (results) {
    const failed = items.filter((i) => results.some((r) => r.key === i.id && !r.ok));
    return (
      <DialogLayout>
        <DialogScroll>
          <BulkResultTable label="Delete results" rows={results} nameHeader="Item" successLabel="Deleted" autoFocus />
        </DialogScroll>
        <DialogFooter>
          <RetryFailedButton count={failed.length} onRetry={() => run(failed)} />
          <Button onClick={onClose}>Close</Button>
        </DialogFooter>
      </DialogLayout>
    );
  }
  return (
    <DialogLayout>
      <DialogScroll>
        <Text size="sm">Groups they were shared with no longer list them, and nobody can open them.</Text>
        <List size="sm" spacing={2} withPadding>
          {items.slice(0, 10).map((i) => (
            <List.Item key={i.id}>{i.title || i.id}</List.Item>
          ))}
          {items.length > 10 ? <List.Item>…and {items.length - 10} more</List.Item> : null}
        </List>
        {blocked.length ? (
          <Alert color="orange" variant="light" title={`${blocked.length} will be refused`}>
            {blocked.slice(0, 5).map((b) => (
              <Text size="sm" key={b.item.id}>
                {b.item.title || b.item.id}: {b.permission.allowed ? '' : b.permission.reason}
              </Text>
            ))}
          </Alert>
        ) : null}
        <ImpactCheckSlot items={items} change={{ kind: 'delete' }} />
        <BulkDeleteSummary items={items} typed={typed} onTyped={setTyped} />
      </DialogScroll>
      <ConfirmActions
        onCancel={onClose}
        onConfirm={() => run(items)}
        disabled={needsTypedCount(items) && typed.trim() !== String(items.length)}
        confirmLabel={`Delete ${items.length} item${items.length === 1 ? '' : 's'}`}
      />
    </DialogLayout>
  );
}
