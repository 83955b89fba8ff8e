/**
 * A multipart upload (spec §4.1): start a `partial` item, send the file in numbered parts a few at
 * a time, then commit with the item's properties. Each part reports its own progress; a part that
 * fails is retried a few times, and if it still fails the upload waits for "retry failed parts"
 * instead of starting over — the parts already received stay on the portal. Cancel stops the
 * parts in flight and asks the portal to drop the partial item.
 */
import { addItemPart, cancelItemUpload, commitItemUpload, describeError, startMultipartUpload, type ItemFieldsInput } from '../../api/index.ts';

/** Files at least this large go through a multipart upload; smaller ones go in one request. */
export const MULTIPART_THRESHOLD_BYTES = 32 * 1024 * 1024;
/** 8 MB parts: a 1 GB file is 128 parts, and the 10,000-part limit allows 80 GB. */
export const PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
const PARALLEL_PARTS = 3;
/** Automatic attempts per part before it is left for "retry failed parts". */
const ATTEMPTS_PER_PART = 3;

export type PartState = 'waiting' | 'sending' | 'done' | 'failed';
export interface PartProgress {
  num: number;
  size: number;
  sent: number;
  state: PartState;
  error?: string;
}
export type UploadPhase = 'starting' | 'uploading' | 'needs-retry' | 'committing' | 'done' | 'failed' | 'cancelled';

export interface UploadSnapshot {
  phase: UploadPhase;
  itemId?: string;
  parts: PartProgress[];
  sentBytes: number;
  totalBytes: number;
  error?: string;
}

export interface UploadTarget {
  username: string;
  folderId?: string;
  file: Blob & { name: string };
  fields: ItemFieldsInput & { title: string; type: string };
  partBytes?: number;
}

export function partCount(size: number, partBytes = PART_BYTES): number {
  return Math.max(1, Math.ceil(size / partBytes));
}

/** The portal's words, with its details (which name the parameter). */
const message = (err: unknown) => describeError(err);

export class MultipartUpload {
  private snapshot: UploadSnapshot;
  private readonly listeners = new Set<(s: UploadSnapshot) => void>();
  private readonly controllers = new Set<AbortController>();
  private readonly partBytes: number;

  constructor(private readonly target: UploadTarget) {
    this.partBytes = target.partBytes ?? PART_BYTES;
    const n = partCount(target.file.size, this.partBytes);
    if (n > MAX_PARTS) throw new Error(`The file needs ${n} parts; the portal takes at most ${MAX_PARTS}.`);
    const parts = Array.from({ length: n }, (_, i) => ({
      num: i + 1,
      size: Math.min(this.partBytes, target.file.size - i * this.partBytes),
      sent: 0,
      state: 'waiting' as const,
    }));
    this.snapshot = { phase: 'starting', parts, sentBytes: 0, totalBytes: target.file.size };
  }

  get current(): UploadSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (s: UploadSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<UploadSnapshot>) {
    const parts = patch.parts ?? this.snapshot.parts;
    this.snapshot = { ...this.snapshot, ...patch, parts, sentBytes: parts.reduce((n, p) => n + p.sent, 0) };
    for (const l of this.listeners) l(this.snapshot);
  }

  private setPart(num: number, patch: Partial<PartProgress>) {
    this.set({ parts: this.snapshot.parts.map((p) => (p.num === num ? { ...p, ...patch } : p)) });
  }

  /** Starts the upload; resolves with the item id once committed (or rejects). */
  async start(): Promise<string> {
    try {
      const started = await startMultipartUpload(this.target.username, this.target.folderId, this.target.file.name);
      this.set({ phase: 'uploading', itemId: started.id });
    } catch (err) {
      this.set({ phase: 'failed', error: message(err) });
      throw err;
    }
    return this.sendAndCommit();
  }

  /** Sends the failed parts again, then commits. */
  async retryFailed(): Promise<string> {
    if (this.snapshot.phase !== 'needs-retry' && this.snapshot.phase !== 'failed') throw new Error('Nothing to retry.');
    if (!this.snapshot.itemId) return this.start();
    this.set({
      phase: 'uploading',
      error: undefined,
      parts: this.snapshot.parts.map((p) => (p.state === 'failed' ? { ...p, state: 'waiting', sent: 0, error: undefined } : p)),
    });
    return this.sendAndCommit();
  }

  async cancel(): Promise<void> {
    const itemId = this.snapshot.itemId;
    this.set({ phase: 'cancelled' });
    for (const c of this.controllers) c.abort();
    if (itemId) await cancelItemUpload(this.target.username, itemId).catch(() => undefined);
  }

  private async sendAndCommit(): Promise<string> {
    const itemId = this.snapshot.itemId!;
    const queue = this.snapshot.parts.filter((p) => p.state === 'waiting').map((p) => p.num);
    const worker = async () => {
      for (let num = queue.shift(); num !== undefined && this.snapshot.phase === 'uploading'; num = queue.shift()) await this.sendPart(itemId, num);
    };
    await Promise.all(Array.from({ length: PARALLEL_PARTS }, worker));
    if (this.snapshot.phase === 'cancelled') throw new Error('The upload was cancelled.');
    const failed = this.snapshot.parts.filter((p) => p.state === 'failed');
    if (failed.length) {
      this.set({ phase: 'needs-retry', error: `${failed.length} part${failed.length === 1 ? '' : 's'} could not be sent: ${failed[0].error}` });
      throw new Error(this.snapshot.error);
    }
    this.set({ phase: 'committing' });
    try {
      await commitItemUpload(this.target.username, itemId, this.target.fields);
    } catch (err) {
      this.set({ phase: 'failed', error: message(err) });
      throw err;
    }
    this.set({ phase: 'done' });
    return itemId;
  }

  private async sendPart(itemId: string, num: number): Promise<void> {
    const start = (num - 1) * this.partBytes;
    const blob = this.target.file.slice(start, start + this.partBytes);
    let lastError = '';
    for (let attempt = 1; attempt <= ATTEMPTS_PER_PART; attempt++) {
      if (this.snapshot.phase !== 'uploading') return;
      const controller = new AbortController();
      this.controllers.add(controller);
      this.setPart(num, { state: 'sending', sent: 0, error: undefined });
      try {
        await addItemPart(this.target.username, itemId, num, blob, {
          signal: controller.signal,
          onUploadProgress: (sent) => this.setPart(num, { sent: Math.min(sent, blob.size) }),
        });
        this.setPart(num, { state: 'done', sent: blob.size });
        return;
      } catch (err) {
        lastError = message(err);
        if (this.snapshot.phase !== 'uploading') return;
      } finally {
        this.controllers.delete(controller);
      }
    }
    this.setPart(num, { state: 'failed', sent: 0, error: lastError });
  }
}
