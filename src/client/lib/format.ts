/** Display helpers. */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Epoch ms → date; -1, 0 or missing → the fallback. */
export function formatDate(ms: number | null | undefined, fallback = '—'): string {
  return typeof ms === 'number' && ms > 0 ? dateFormat.format(ms) : fallback;
}

export function formatDateTime(ms: number | null | undefined, fallback = '—'): string {
  return typeof ms === 'number' && ms > 0 ? dateTimeFormat.format(ms) : fallback;
}

export function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
