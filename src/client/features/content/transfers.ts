/**
 * The work that outlives a dialog: multipart uploads and dataUrl downloads (async addItem jobs).
 * Held outside React so that the job tray keeps showing them while the member moves around the
 * console; dataUrl jobs are also kept in sessionStorage, so a reload goes on polling them.
 */
import { useSyncExternalStore } from 'react';
import type { MultipartUpload } from './upload.ts';

export interface UploadTransfer {
  kind: 'upload';
  key: string;
  title: string;
  username: string;
  upload: MultipartUpload;
}

export interface DownloadTransfer {
  kind: 'dataUrl';
  key: string;
  title: string;
  username: string;
  itemId: string;
  source: string;
}

export type Transfer = UploadTransfer | DownloadTransfer;

const STORAGE_KEY = 'portal-console.dataUrlJobs';
const listeners = new Set<() => void>();
let transfers: Transfer[] = loadDownloads();

function loadDownloads(): Transfer[] {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as DownloadTransfer[]) : [];
    return Array.isArray(parsed) ? parsed.filter((t) => t && t.kind === 'dataUrl' && typeof t.itemId === 'string') : [];
  } catch {
    return [];
  }
}

function changed(next: Transfer[]) {
  transfers = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next.filter((t) => t.kind === 'dataUrl')));
  } catch {
    /* storage full or unavailable: the tray still works for this page's lifetime */
  }
  for (const l of listeners) l();
}

export function addTransfer(t: Transfer): void {
  changed([t, ...transfers.filter((x) => x.key !== t.key)]);
}

export function dismissTransfer(key: string): void {
  changed(transfers.filter((t) => t.key !== key));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTransfers(): Transfer[] {
  return useSyncExternalStore(
    subscribe,
    () => transfers,
    () => transfers,
  );
}
