/**
 * "Deprecate and point to a replacement": choose the replacement, see every map and app that names
 * the old item in its data (and which of them will be skipped, with why), then in one step point
 * them at the replacement and mark the old item deprecated. A result per item, progress while it
 * runs, retry of the failed ones; each rewrite is in history and can be undone there.
 */
import { Alert, Badge, Button, List, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { describeError, getItem, type Item } from '../../api/index.ts';
import { BulkProgress, RetryFailedButton } from '../../components/Bulk.tsx';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import type { ReplaceDialogProps } from '../../components/ImpactSlot.tsx';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { announce } from '../../lib/announce.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useItemDependencies } from './queries.ts';
import { dataReferrers, planReplacement, type ReplaceStep } from './replace.ts';
import { runReplacement, type ReplaceRunResult } from './replaceRun.ts';
import { referencesInWords } from './wording.ts';
import { itemKeys } from '../../api/queries/items.ts';

export type { ReplaceDialogProps };

export function ReplaceDialog({ item, opened, onClose }: ReplaceDialogProps) {
  const queryClient = useQueryClient();
  const ran = useRef(false);
  // Items are read again once the dialog closes, not while its results show: the item page redraws
  // its status control when the status changes, which would take the dialog with it.
  const close = () => {
    onClose();
    if (ran.current) void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    ran.current = false;
  };
  return (
    <Modal opened={opened} onClose={close} title={`Deprecate “${item.title}” and point to a replacement`} size="lg" centered>
      {opened ? <ReplaceFlow item={item} onClose={close} onRan={() => (ran.current = true)} /> : null}
    </Modal>
  );
}

const STATUS_LABELS = { updated: 'Updated', skipped: 'Skipped', failed: 'Failed' } as const;
const STATUS_COLORS = { updated: 'green', skipped: 'gray', failed: 'red' } as const;

function ReplaceFlow({ item, onClose, onRan }: { item: Item; onClose: () => void; onRan: () => void }) {
  const user = useCurrentUser();
  const [replacementId, setReplacementId] = useState('');
  const [picked, setPicked] = useState<Item | undefined>();
  const replacement = useQuery({
    queryKey: itemKeys.detail(replacementId),
    queryFn: ({ signal }) => getItem(replacementId, { signal }),
    enabled: !!replacementId && picked?.id !== replacementId,
  });
  const chosen = picked?.id === replacementId ? picked : replacement.data;
  const dependents = useItemDependencies(item.id, 'usedBy');
  const referrers = useMemo(() => (dependents.data ? dataReferrers(dependents.data, item.id) : []), [dependents.data, item.id]);
  const steps = useMemo(() => planReplacement(referrers, user, replacementId), [referrers, user, replacementId]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<ReplaceRunResult | null>(null);
  const [runError, setRunError] = useState<string | null>(null);

  const run = async (only?: readonly ReplaceStep[]) => {
    if (!chosen) return;
    setRunError(null);
    setProgress({ done: 0, total: (only ?? steps).filter((s) => s.action === 'update').length });
    try {
      const r = await runReplacement(item, chosen, only ?? steps, {
        deprecate: true,
        onProgress: (done, total) => setProgress({ done, total }),
      });
      const merged = only && result ? { ...r, outcomes: result.outcomes.map((o) => r.outcomes.find((n) => n.id === o.id) ?? o) } : r;
      setResult(merged);
      const count = (s: string) => merged.outcomes.filter((o) => o.status === s).length;
      announce(
        `${count('updated')} updated, ${count('skipped')} skipped, ${count('failed')} failed. ${
          merged.deprecated.ok ? `“${item.title}” is deprecated.` : `“${item.title}” was not deprecated: ${merged.deprecated.message}`
        }`,
      );
    } catch (err) {
      setRunError(describeError(err));
      announce(`The replacement did not run: ${describeError(err)}`, 'assertive');
    } finally {
      setProgress(null);
      onRan();
    }
  };

  if (progress) return <BulkProgress label="Pointing items to the replacement" done={progress.done} total={progress.total} autoFocus />;
  if (result) {
    const failed = steps.filter((s) => result.outcomes.some((o) => o.id === s.referrer.item.id && o.status === 'failed'));
    return (
      <DialogLayout>
        <DialogScroll>
          <Table aria-label="Replacement results" striped verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Result</Table.Th>
                <Table.Th>Detail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.outcomes.map((o) => (
                <Table.Tr key={o.id} data-status={o.status}>
                  <Table.Td>{o.title}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[o.status]} variant="light" tt="none">
                      {STATUS_LABELS[o.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{o.detail}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {result.deprecated.ok ? (
            <Text size="sm" data-testid="replace-deprecated">
              “{item.title}” is now deprecated. Each change is in the items' history, where it can be undone.
            </Text>
          ) : (
            <Alert color="red" variant="light" title={`“${item.title}” was not marked deprecated`}>
              {result.deprecated.message}
            </Alert>
          )}
        </DialogScroll>
        <DialogFooter>
          <RetryFailedButton count={failed.length} onRetry={() => void run(failed)} />
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </DialogFooter>
      </DialogLayout>
    );
  }

  const updates = steps.filter((s) => s.action === 'update').length;
  return (
    <DialogLayout>
      <DialogScroll>
        <ItemPicker
          label="Replacement"
          description={`The ${item.type} the maps and apps should use instead.`}
          // What names the old item expects its kind: a layer is replaced by a layer of the same type.
          types={[item.type]}
          value={replacementId}
          onChange={(id, found) => {
            setReplacementId(id);
            setPicked(found);
          }}
          exclude={[item.id]}
        />
        {dependents.isPending ? (
          <Text size="sm">Checking what uses this item…</Text>
        ) : dependents.isError ? (
          <Alert color="orange" variant="light" title="What uses this item could not be read">
            {describeError(dependents.error)} You can still mark it deprecated from its page.
          </Alert>
        ) : referrers.length ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {referrers.length === 1 ? '1 map or app names it in its data:' : `${referrers.length} maps and apps name it in their data:`}
            </Text>
            <List size="sm" spacing={4} aria-label="Maps and apps that reference it">
              {referrers.map((r) => {
                const step = steps.find((s) => s.referrer.item.id === r.item.id);
                return (
                  <List.Item key={r.item.id} data-testid="replace-referrer">
                    {r.item.title || r.item.id} ({r.item.type}, {r.item.owner}) — uses it {referencesInWords(r.edges)}
                    {step?.action === 'skip' ? <Text size="xs" c="orange">{`Will be skipped: ${step.reason}`}</Text> : null}
                  </List.Item>
                );
              })}
            </List>
            {dependents.data?.hidden ? <Text size="sm">…and {dependents.data.hidden} you cannot see: their owners must switch themselves.</Text> : null}
          </Stack>
        ) : (
          <Text size="sm">Nothing that you can see names it in its data{dependents.data?.hidden ? ` (${dependents.data.hidden} you cannot see)` : ''}.</Text>
        )}
        {runError ? (
          <Alert color="red" variant="light" role="alert" title="The replacement did not run">
            {runError}
          </Alert>
        ) : null}
      </DialogScroll>
      <ConfirmActions
        onCancel={onClose}
        onConfirm={() => void run()}
        color="blue"
        disabled={!chosen}
        confirmLabel={updates ? `Point ${updates} item${updates === 1 ? '' : 's'} to the replacement and deprecate` : 'Deprecate'}
      />
    </DialogLayout>
  );
}
