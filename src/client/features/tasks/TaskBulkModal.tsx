/** Pausing or resuming the ticked tasks: progress, then a result per task (closable only then). */
import { Modal } from '@mantine/core';
import { BulkProgress, BulkResultTable } from '../../components/Bulk.tsx';
import type { BulkState } from './useTasksPage.tsx';

export function TaskBulkModal({ bulk, onClose }: { bulk: BulkState | null; onClose: () => void }) {
  return (
    <Modal opened={!!bulk} onClose={() => bulk?.rows && onClose()} title={bulk?.label ?? ''} size="lg" centered>
      {bulk ? (
        bulk.rows ? (
          <BulkResultTable label={`${bulk.label}: results`} rows={bulk.rows} nameHeader="Task" />
        ) : (
          <BulkProgress label={bulk.label} done={bulk.done} total={bulk.total} />
        )
      ) : null}
    </Modal>
  );
}
