/**
 * In-process nudge for job runners: a request that queues a job wakes this process's runner at
 * once instead of waiting for its next poll (other processes still find the job by polling).
 */
const listeners = new Set<() => void>();

export function onJobQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function jobQueued(): void {
  for (const l of listeners) l();
}
