/**
 * Saving a file the console fetched (with the token in a header) to the user's disk: an object URL
 * for the blob and a download anchor. The file is never opened on the console's origin (a blob: URL
 * shares it), so an HTML or SVG file from an item cannot run script here.
 */
import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { describeError, type FetchedFile } from '../api/index.ts';

/** Saves the blob under the portal's filename, else `fallback`. */
export function saveFile(file: FetchedFile, fallback: string): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = safeFilename(file.filename) ?? fallback;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The click starts the download synchronously; the URL is released once it has been handed over.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A filename without folders (the browser strips them anyway; an empty name means "use the fallback"). */
function safeFilename(name: string | undefined): string | undefined {
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : undefined;
}

/**
 * A download the user starts (a button): fetches, saves, and reports a failure as a notification.
 * `pending` is the key of the download running, so its button can show it.
 */
export function useDownload(): { start: (key: string, fetchFile: () => Promise<FetchedFile>, fallback: string) => void; pending: string | null } {
  const [pending, setPending] = useState<string | null>(null);
  const start = useCallback((key: string, fetchFile: () => Promise<FetchedFile>, fallback: string) => {
    setPending(key);
    fetchFile()
      .then((file) => saveFile(file, fallback))
      .catch((err: unknown) => notifications.show({ color: 'red', title: 'The download failed', message: describeError(err) }))
      .finally(() => setPending((k) => (k === key ? null : k)));
  }, []);
  return { start, pending };
}
