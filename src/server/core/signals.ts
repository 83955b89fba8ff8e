/**
 * In-process signals: a request that queues work wakes this process's runner at once instead of
 * at its next poll. Other processes (scale-out) still find the work by polling, so a signal is only
 * ever a shortcut, never the way work is found. Listeners are per process, not per service
 * instance: a test process with several services wakes each one's runner, which then finds
 * nothing of its own and waits again.
 */
export type Signal =
  /** An item's background job (a dataUrl download) was queued: the item-jobs runner. */
  | 'itemJobQueued'
  /** A task was created, changed, paused, resumed or run by hand: the scheduler. */
  | 'taskSchedulesChanged'
  /** A member's expiration or an inactivity policy changed: the member lifecycle runner. */
  | 'memberLifecycleChanged'
  /** A bulk member job was created or resumed: the member jobs runner. */
  | 'memberJobQueued'
  /** Webhook deliveries were queued (a test event, a redelivery, an activation): the dispatcher. */
  | 'webhookWorkQueued';

const listeners = new Map<Signal, Set<() => void>>();

/** Listens for a signal; answers the function that stops listening. */
export function onSignal(signal: Signal, listener: () => void): () => void {
  let set = listeners.get(signal);
  if (!set) listeners.set(signal, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function raise(signal: Signal): void {
  for (const listener of listeners.get(signal) ?? []) listener();
}
