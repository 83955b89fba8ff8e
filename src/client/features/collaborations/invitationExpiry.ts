/** An invitation's expiry in words, both ways in time: "expires in 2 days", "expired 3 hours ago". */
import { formatDateTime } from '../../lib/format.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "in 3 days", "3 hours ago", "in less than a minute": the largest whole unit, rounded (72 hours less a moment still reads "in 3 days"). */
export function relativeTo(when: number, now: number): string {
  const delta = when - now;
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return format.format(Math.round(delta / ms), unit);
  }
  if (delta > 0) return 'in less than a minute';
  return delta === 0 ? 'just now' : 'less than a minute ago';
}

/**
 * The sentence a host or guest reads: relative (how soon) and absolute (for a message to the other
 * organization). Null: the invitation never expires (made before invitations expired).
 */
export function expiryInWords(expires: number | null, now = Date.now()): string | null {
  if (expires === null) return null;
  return `${expires <= now ? 'Expired' : 'Expires'} ${relativeTo(expires, now)} (${formatDateTime(expires)})`;
}
