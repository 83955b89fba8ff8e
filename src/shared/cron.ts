/**
 * The schedule of a task: five separate CRON fields (facts §7.3) — minute, hour, dayOfMonth,
 * month, dayOfWeek — validated and stepped through, all in UTC. One module for the server
 * (validation, next runs) and the console (the builder's preview); the words are in cronWords.ts,
 * which only the console needs (the service does not load its English phrasing at start).
 *
 * Two styles are accepted:
 * - Quartz (what the service documents): one of the day fields is `?`; day-of-week 1–7 = SUN–SAT;
 *   `L`, `W`, `LW` in dayOfMonth; `L` (Saturday), `nL`, `n#k` in dayOfWeek.
 * - Unix, leniently (what the ArcGIS API for Python sends by splitting "0 0 * * 0"): neither day
 *   field is `?`; day-of-week 0–7 with 0 and 7 = Sunday; when both day fields are restricted a
 *   day matches either one (Vixie cron).
 * The style follows from `?` alone, so one expression never means two things.
 */
import { Cron } from 'croner';

export const CRON_FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
export type CronField = (typeof CRON_FIELDS)[number];
export type CronSchedule = Record<CronField, string>;
export type CronStyle = 'quartz' | 'unix';

/** Longest accepted text of one field. */
export const CRON_FIELD_MAX_LENGTH = 100;

export type CronErrors = Partial<Record<CronField, string>>;
export type CronCheck = { ok: true; style: CronStyle } | { ok: false; errors: CronErrors };

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldRule {
  min: number;
  max: number;
  names?: string[];
  /** Value of the first name (months 1, Quartz days 1, Unix days 0). */
  nameBase?: number;
}

function rules(style: CronStyle): Record<CronField, FieldRule> {
  return {
    minute: { min: 0, max: 59 },
    hour: { min: 0, max: 23 },
    dayOfMonth: { min: 1, max: 31 },
    month: { min: 1, max: 12, names: MONTHS, nameBase: 1 },
    dayOfWeek: style === 'quartz' ? { min: 1, max: 7, names: DAYS, nameBase: 1 } : { min: 0, max: 7, names: DAYS, nameBase: 0 },
  };
}

export function scheduleStyle(s: CronSchedule): CronStyle {
  return s.dayOfMonth.trim() === '?' || s.dayOfWeek.trim() === '?' ? 'quartz' : 'unix';
}

/** Both day fields restrict the days (neither is `*` nor `?`): a day matching either one runs. */
export function bothDayFieldsSet(s: CronSchedule): boolean {
  const open = (v: string) => v.trim() === '*' || v.trim() === '?';
  return !open(s.dayOfMonth) && !open(s.dayOfWeek);
}

/** Check every field; each problem is named by its field. */
export function validateSchedule(s: CronSchedule): CronCheck {
  const errors: CronErrors = {};
  for (const field of CRON_FIELDS) {
    const v = s[field];
    if (typeof v !== 'string' || !v.trim()) errors[field] = 'is required';
    else if (v.length > CRON_FIELD_MAX_LENGTH) errors[field] = `must be at most ${CRON_FIELD_MAX_LENGTH} characters`;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const dom = s.dayOfMonth.trim();
  const dow = s.dayOfWeek.trim();
  if (dom === '?' && dow === '?') return { ok: false, errors: { dayOfWeek: "'?' may stand in only one of dayOfMonth and dayOfWeek" } };
  const style = scheduleStyle(s);
  const r = rules(style);
  for (const field of CRON_FIELDS) {
    const problem = checkField(field, s[field].trim().toUpperCase(), r[field], style);
    if (problem) errors[field] = problem;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  // The field checks mirror croner's grammar; anything it still refuses is reported, never ignored.
  try {
    cronFor(s, style);
  } catch (err) {
    return { ok: false, errors: { [fieldOfCronerError(err)]: `is not a valid CRON field (${(err as Error).message.replace(/^CronPattern:\s*/, '')})` } };
  }
  return { ok: true, style };
}

function checkField(field: CronField, text: string, rule: FieldRule, style: CronStyle): string | null {
  if (text === '?') return field === 'dayOfMonth' || field === 'dayOfWeek' ? null : "'?' is allowed only in dayOfMonth and dayOfWeek";
  if (/\s/.test(text)) return 'must not contain spaces';
  if (text.includes('C')) {
    // Before name lookup: a month or day name may contain C (DEC, OCT), the calendar modifier may not.
    if (!(rule.names && text.split(/[,\-/#]/).every((p) => !p.includes('C') || rule.names!.includes(p.replace(/L$/, '')))))
      return "'C' (calendar) is not supported";
  }
  for (const part of text.split(',')) {
    if (!part) return 'has an empty list entry';
    const problem = checkPart(field, part, rule, style);
    if (problem) return `'${part}': ${problem}`;
  }
  return null;
}

function checkPart(field: CronField, part: string, rule: FieldRule, style: CronStyle): string | null {
  const value = (t: string): number | string => {
    if (/^\d+$/.test(t)) {
      const n = Number(t);
      return n < rule.min || n > rule.max ? `${n} is outside ${rule.min}–${rule.max}` : n;
    }
    const i = rule.names?.indexOf(t) ?? -1;
    if (i >= 0) return i + (rule.nameBase ?? 0);
    return `'${t}' is not a number${rule.names ? ' or a name' : ''}`;
  };
  if (part === '?') return "'?' must stand alone";
  if (field === 'dayOfMonth') {
    if (part === 'L' || part === 'LW') return null;
    const w = /^(\d+)W$/.exec(part);
    if (w) return typeof value(w[1]) === 'string' ? (value(w[1]) as string) : null;
    if (/[LW]/.test(part)) return "'L' and 'W' are allowed as L, LW or nW (e.g. 15W)";
  }
  if (field === 'dayOfWeek') {
    if (part === 'L') return style === 'quartz' ? null : "'L' alone is Quartz style (use ? in dayOfMonth)";
    const last = /^(\w+)L$/.exec(part);
    if (last) return typeof value(last[1]) === 'string' ? (value(last[1]) as string) : null;
    const nth = /^(\w+)#(\d+)$/.exec(part);
    if (nth) {
      const v = value(nth[1]);
      if (typeof v === 'string') return v;
      const k = Number(nth[2]);
      return k >= 1 && k <= 5 ? null : `#${nth[2]} must be 1–5 (which occurrence in the month)`;
    }
    if (/[#]/.test(part) || /L/.test(part.replace(/SUN|MON|TUE|WED|THU|FRI|SAT/g, ''))) return 'use n#k (e.g. 6#3) or nL (e.g. 6L)';
  }
  if (/[LW#]/.test(part.replace(/[A-Z]{3}/g, (m) => (rule.names?.includes(m) ? '0' : m)))) return `'L', 'W' and '#' are not allowed in ${field}`;
  const [range, step, extra] = part.split('/');
  if (extra !== undefined) return 'has more than one /';
  if (step !== undefined) {
    if (!/^\d+$/.test(step) || Number(step) < 1) return `step '${step}' must be a positive whole number`;
    if (Number(step) > rule.max) return `step ${step} is larger than ${rule.max}`;
  }
  if (range === '*') return null;
  const bounds = range.split('-');
  if (bounds.length > 2) return 'has more than one -';
  const lo = value(bounds[0]);
  if (typeof lo === 'string') return lo;
  if (bounds.length === 2) {
    const hi = value(bounds[1]);
    if (typeof hi === 'string') return hi;
    if (hi < lo) return `range ${bounds[0]}-${bounds[1]} runs backwards`;
  } else if (step !== undefined) {
    // "5/15" means from 5 every 15 (Quartz); croner wants the range spelled out.
    return null;
  }
  return null;
}

/** The expression croner runs: `?` becomes `*` (croner would read `?` as "now"), `a/n` becomes `a-max/n`. */
function cronerPattern(s: CronSchedule, style: CronStyle): string {
  const r = rules(style);
  return CRON_FIELDS.map((field) => {
    const text = s[field].trim().toUpperCase();
    if (text === '?') return '*';
    return text
      .split(',')
      .map((part) => {
        if (field === 'dayOfWeek' && part === 'L') return String(r.dayOfWeek.max);
        const m = /^(\w+)\/(\d+)$/.exec(part);
        return m && m[1] !== '*' ? `${m[1]}-${field === 'dayOfWeek' && style === 'unix' ? 6 : r[field].max}/${m[2]}` : part;
      })
      .join(',');
  }).join(' ');
}

function cronFor(s: CronSchedule, style: CronStyle): Cron {
  // A fixed UTC offset, not the 'UTC' time zone: the same instants without Intl on every step.
  return new Cron(cronerPattern(s, style), { utcOffset: 0, mode: '5-part', alternativeWeekdays: style === 'quartz', paused: true });
}

function fieldOfCronerError(err: unknown): CronField {
  const msg = String((err as Error)?.message ?? '').toLowerCase();
  if (msg.includes('dayofweek') || msg.includes('weekday')) return 'dayOfWeek';
  if (msg.includes('day')) return 'dayOfMonth';
  if (msg.includes('month')) return 'month';
  if (msg.includes('hour')) return 'hour';
  return 'minute';
}

export class CronScheduleError extends Error {
  constructor(readonly errors: CronErrors) {
    super(
      Object.entries(errors)
        .map(([f, p]) => `${f} ${p}`)
        .join('; '),
    );
  }
}

/** The schedule's style; a CronScheduleError when it is not valid. */
export function checked(s: CronSchedule): CronStyle {
  const check = validateSchedule(s);
  if (!check.ok) throw new CronScheduleError(check.errors);
  return check.style;
}

/**
 * Parsed schedules, by their five fields: a scheduler steps through many tasks sharing a few
 * schedules, and parsing (validation + croner) costs far more than stepping.
 */
const parsed = new Map<string, Cron>();
const PARSED_MAX = 2000;

function parsedCron(s: CronSchedule): Cron {
  const key = CRON_FIELDS.map((f) => s[f]).join('\u0000');
  let cron = parsed.get(key);
  if (!cron) {
    cron = cronFor(s, checked(s));
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(key, cron);
  }
  return cron;
}

export interface RunWindow {
  /** Epoch ms; no run before it. */
  startDate?: number | null;
  /** Epoch ms; no run after it. */
  endDate?: number | null;
}

/** Up to `count` run times (epoch ms, UTC) strictly after `after`, within the window. */
export function nextRuns(s: CronSchedule, after: number, count: number, window: RunWindow = {}): number[] {
  const cron = parsedCron(s);
  const out: number[] = [];
  // A run exactly at startDate counts: start the search one millisecond before it.
  let from = Math.max(after, (window.startDate ?? -Infinity) - 1);
  while (out.length < count) {
    const next = cron.nextRun(new Date(from));
    if (!next) break;
    const t = next.getTime();
    if (window.endDate != null && t > window.endDate) break;
    out.push(t);
    from = t;
  }
  return out;
}

/** The first run strictly after `after`, or null when there is none (window ended). */
export function nextRun(s: CronSchedule, after: number, window: RunWindow = {}): number | null {
  return nextRuns(s, after, 1, window)[0] ?? null;
}
