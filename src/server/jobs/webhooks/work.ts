/** In-process nudge: work was queued by this process (test event, redelivery, activation). */
const listeners = new Set<() => void>();

export function webhookWork(): void {
  for (const l of listeners) l();
}

/** The dispatcher's side of the nudge; answers the function that stops listening. */
export function listenForWork(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
