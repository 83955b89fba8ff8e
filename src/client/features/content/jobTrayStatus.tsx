/**
 * What each entry of the job tray is doing, watched whether or not the tray is open: the chip
 * counts entries in progress, failed and finished from it; the watcher speaks an upload's progress
 * and its end, refreshes the item lists when an entry ends, and dismisses a finished entry by
 * itself after AUTO_DISMISS_MS (a failed one stays until the member dismisses it).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { announce } from '../../lib/announce.ts';
import { itemJobQuery, itemKeys } from '../../api/queries/items.ts';
import { dismissTransfer, type DownloadTransfer, type Transfer, type UploadTransfer } from './transfers.ts';
import type { MultipartUpload } from './upload.ts';

export type TrayState = 'active' | 'done' | 'failed';
export interface TrayStatus {
  state: TrayState;
  /** An upload's share sent, 0–100. */
  percent?: number;
}

/** Long enough to read "Added" and follow its link; short enough not to linger over the page. */
export const AUTO_DISMISS_MS = 6000;
/** The chip's id: focus returns to it when an entry that held focus goes by itself. */
export const TRAY_CHIP_ID = 'job-tray-chip';

export function useUploadState(upload: MultipartUpload) {
  return useSyncExternalStore(
    (cb) => upload.subscribe(cb),
    () => upload.current,
  );
}

type OnStatus = (key: string, status: TrayStatus) => void;

export function TransferWatcher({ transfer, onStatus }: { transfer: Transfer; onStatus: OnStatus }) {
  return transfer.kind === 'upload' ? <UploadWatcher transfer={transfer} onStatus={onStatus} /> : <DownloadWatcher transfer={transfer} onStatus={onStatus} />;
}

function UploadWatcher({ transfer, onStatus }: { transfer: UploadTransfer; onStatus: OnStatus }) {
  const s = useUploadState(transfer.upload);
  const queryClient = useQueryClient();
  const ended = s.phase === 'done' || s.phase === 'cancelled';
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  }, [ended, queryClient]);
  const percent = s.totalBytes ? (s.sentBytes / s.totalBytes) * 100 : 0;
  useUploadAnnouncements(transfer.title, s.phase, percent, s.error);
  const state: TrayState = ended ? 'done' : s.phase === 'failed' || s.phase === 'needs-retry' ? 'failed' : 'active';
  const rounded = Math.floor(percent);
  useEffect(() => onStatus(transfer.key, { state, percent: rounded }), [onStatus, transfer.key, state, rounded]);
  useAutoDismiss(transfer.key, state === 'done');
  return null;
}

function DownloadWatcher({ transfer, onStatus }: { transfer: DownloadTransfer; onStatus: OnStatus }) {
  const job = useQuery(itemJobQuery(transfer.username, transfer.itemId));
  const queryClient = useQueryClient();
  const status = job.data?.status;
  useEffect(() => {
    if (status === 'completed' || status === 'failed') void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  }, [status, queryClient]);
  useEffect(() => {
    if (status === 'completed') announce(`Download of “${transfer.title}” finished: the item was added.`);
    else if (status === 'failed') announce(`Download of “${transfer.title}” failed: ${job.data?.statusMessage ?? 'the portal gave no reason'}.`, 'assertive');
    // Only the change of status is news; the message goes with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, transfer.title]);
  const state: TrayState = status === 'completed' ? 'done' : status === 'failed' || job.isError ? 'failed' : 'active';
  useEffect(() => onStatus(transfer.key, { state }), [onStatus, transfer.key, state]);
  useAutoDismiss(transfer.key, state === 'done');
  return null;
}

/**
 * Dismisses the entry AUTO_DISMISS_MS after it finished — not while focus is in it (the member is
 * using its link or its buttons): then once focus has left it.
 */
function useAutoDismiss(key: string, finished: boolean) {
  useEffect(() => {
    if (!finished) return;
    let timer = 0;
    const tick = () => {
      const row = document.querySelector(`[data-transfer-key="${CSS.escape(key)}"]`);
      if (row?.contains(document.activeElement)) timer = window.setTimeout(tick, AUTO_DISMISS_MS);
      else dismissTransfer(key);
    };
    timer = window.setTimeout(tick, AUTO_DISMISS_MS);
    return () => window.clearTimeout(timer);
  }, [key, finished]);
}

const MILESTONES = [25, 50, 75];

/**
 * Speaks an upload's progress at 25, 50 and 75 % (every percent would drown everything else),
 * then how it ended. The visible line below the bar changes continuously and is not a live region.
 */
function useUploadAnnouncements(title: string, phase: string, percent: number, error: string | undefined) {
  const said = useRef({ milestone: 0, phase: '' });
  useEffect(() => {
    const reached = MILESTONES.filter((m) => percent >= m).pop() ?? 0;
    if (phase === 'uploading' && reached > said.current.milestone) {
      said.current.milestone = reached;
      announce(`Upload of “${title}”: ${reached}% sent.`);
    }
  }, [percent, phase, title]);
  useEffect(() => {
    if (phase === said.current.phase) return;
    said.current.phase = phase;
    if (phase === 'done') announce(`Upload of “${title}” finished: the item was added.`);
    else if (phase === 'failed') announce(`Upload of “${title}” failed${error ? `: ${error}` : '.'}`, 'assertive');
    else if (phase === 'needs-retry') announce(`Upload of “${title}”: some parts failed. Retry the failed parts from the tray.`, 'assertive');
    else if (phase === 'cancelled') announce(`Upload of “${title}” was cancelled.`);
  }, [phase, title, error]);
}
