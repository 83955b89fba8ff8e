/**
 * A bulk action left unfinished — a server job still running (or finished while the console was
 * closed) or a browser run stopped with its tab — shown above the member list with how far it is,
 * and opened again to follow it, pause or resume it, or see its results.
 */
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { getMemberJob } from '../../../api/memberJobs.ts';
import { formatCount } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { BulkResults } from './BulkResults.tsx';
import { BulkRunProgress } from './BulkRunProgress.tsx';
import { BULK_TITLES } from './plan.ts';
import { clearRun, loadRun, SAVED_RUN_CHANGED, type SavedRun } from './savedRun.ts';
import { useBulkRun } from './useBulkRun.ts';

function subscribe(onChange: () => void) {
  window.addEventListener(SAVED_RUN_CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(SAVED_RUN_CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

export function UnfinishedBulkRun() {
  const user = useCurrentUser();
  // The stored text is the snapshot (a string compares by value); parsed below.
  const text = useSyncExternalStore(subscribe, () => JSON.stringify(loadRun(user.orgId, user.username)));
  const saved = JSON.parse(text) as SavedRun | null;
  // The run opened, and whether it had ended then: the saved record is cleared once its results are
  // shown, so the dialog keeps what the notice said when it was opened.
  const [opened, setOpened] = useState<{ run: SavedRun; ended: boolean } | null>(null);
  const open = opened?.run ?? null;
  const jobId = saved?.mode === 'server' ? saved.jobId : '';
  const job = useQuery({
    queryKey: ['memberJobs', user.orgId, jobId],
    queryFn: () => getMemberJob(user.orgId, jobId),
    enabled: jobId !== '' && !open,
    refetchInterval: 2000,
  });
  if (!saved && !open) return null;
  const done = saved?.mode === 'browser' ? saved.total - saved.pending.length : (job.data?.done ?? 0);
  // A portal job may have ended while the console was closed: then the notice offers its results.
  const ended = saved?.mode === 'server' && (job.data?.state === 'done' || job.data?.state === 'cancelled');
  const where =
    saved?.mode === 'server'
      ? ended
        ? 'finished on the portal'
        : `${job.data?.state === 'paused' ? 'paused' : 'running'} on the portal`
      : 'stopped with its browser tab';
  return (
    <>
      {saved ? (
        <Alert
          color="blue"
          variant="light"
          title={`${BULK_TITLES[saved.kind]}: ${ended ? 'a bulk action that finished while you were away' : 'an unfinished bulk action'}`}
          data-testid="unfinished-bulk-run"
        >
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {formatCount(done)} of {formatCount(saved.total)} members done, {where}.
            </Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => setOpened({ run: saved, ended })}>
                {saved.mode === 'server' ? (ended ? 'Show results' : 'Show progress') : 'Resume'}
              </Button>
              {saved.mode === 'browser' ? (
                <Button size="xs" variant="default" onClick={() => clearRun(user.orgId, user.username)}>
                  Discard
                </Button>
              ) : null}
            </Group>
          </Group>
        </Alert>
      ) : null}
      <Modal
        opened={open !== null}
        onClose={() => setOpened(null)}
        title={opened ? `${BULK_TITLES[opened.run.kind]}: ${opened.ended ? 'bulk action results' : 'unfinished bulk action'}` : ''}
        size="xl"
        centered
      >
        {open ? <ResumedRun saved={open} onClose={() => setOpened(null)} /> : null}
      </Modal>
    </>
  );
}

function ResumedRun({ saved, onClose }: { saved: SavedRun; onClose: () => void }) {
  const user = useCurrentUser();
  const run = useBulkRun(user.orgId, user.username);
  const { attach } = run;
  // Once, with the run as it was when opened.
  useEffect(() => attach(saved), []); // eslint-disable-line react-hooks/exhaustive-deps
  if (!run.state) return null;
  if (run.state.phase !== 'finished' || !run.state.outcomes)
    return <BulkRunProgress state={run.state} error={run.error} onControl={run.control} onClose={onClose} />;
  const rows = [...run.state.outcomes.keys()].map((username) => ({ member: { username } }));
  return <BulkResults kind={run.state.kind} plan={rows} outcomes={run.state.outcomes} jobId={run.state.jobId} onDone={onClose} />;
}
