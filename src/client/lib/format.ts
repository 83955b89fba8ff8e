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

const countFormat = new Intl.NumberFormat('en-US');

/** 20000 → "20,000"; with `estimated`, "about 20,000" (a portal's estimated total). */
export function formatCount(n: number, estimated = false): string {
  return `${estimated ? 'about ' : ''}${countFormat.format(n)}`;
}

/** 1 → "1 item", 2 → "2 items", 1200 → "1,200 items": the count with the noun it agrees with. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

export function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** "a Feature Service", "an Image Service": the article by the first letter (type names, not English at large). */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** 1536 → "1.5 KB"; binary units, one decimal below 10. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
