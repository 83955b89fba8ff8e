/**
 * One announcer for the whole console: results of work that finishes out of sight (saved, refused
 * with the portal's reason, upload milestones, bulk summaries, portal-side downloads) are spoken by
 * screen readers through two visually hidden live regions mounted once (components/Announcer.tsx).
 *
 * Polite waits for the reader to finish; assertive interrupts (refusals and failures only).
 */
export type Politeness = 'polite' | 'assertive';

export interface Announcement {
  message: string;
  politeness: Politeness;
  /** Increases with each announcement, so the same words said twice are spoken twice. */
  seq: number;
}

type Listener = (a: Announcement) => void;
const listeners = new Set<Listener>();
let seq = 0;

export function announce(message: string, politeness: Politeness = 'polite'): void {
  const text = message.replace(/\s+/g, ' ').trim();
  if (!text) return;
  seq += 1;
  const a = { message: text, politeness, seq };
  for (const l of listeners) l(a);
}

export function subscribeAnnouncements(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The words of a notification's title or message when they are text (React nodes are left out). */
export function textOf(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  return '';
}
