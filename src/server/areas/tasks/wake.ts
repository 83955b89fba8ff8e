/** In-process nudge: a task was created, changed or started by hand in this process; its scheduler looks at once. */
const listeners = new Set<() => void>();

export function onSchedulerWork(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function schedulerWork(): void {
  for (const l of listeners) l();
}
