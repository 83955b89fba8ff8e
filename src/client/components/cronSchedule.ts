/**
 * Schedule presets and the schedule preview, without React (tested directly): the presets people
 * can trust (every N minutes, hourly, daily, weekdays, weekly on chosen days, monthly on a day or
 * the last day), the five CRON fields each stands for, and the words and next runs of a schedule.
 */
import { bothDayFieldsSet, nextRuns, validateSchedule, type CronField, type CronSchedule, type RunWindow } from '../../shared/cron.ts';
import { describeSchedule } from '../../shared/cronWords.ts';

export type PresetKind = 'minutes' | 'hourly' | 'daily' | 'weekdays' | 'weekly' | 'monthly';

export interface Preset {
  kind: PresetKind;
  /** every N minutes */
  every: number;
  /** minute past the hour (hourly) */
  minute: number;
  /** "HH:MM" (UTC) */
  time: string;
  /** Quartz day numbers 1–7 = Sunday–Saturday (weekly) */
  days: number[];
  /** 1–31 or 'L' (monthly) */
  monthDay: number | 'L';
}

export const DEFAULT_PRESET: Preset = { kind: 'weekdays', every: 15, minute: 0, time: '07:30', days: [2], monthDay: 1 };

function hm(time: string): [number, number] {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!m) return [0, 0];
  return [Math.min(23, Number(m[1])), Math.min(59, Number(m[2]))];
}

/** The five fields a preset stands for (Quartz style: one day field is `?`). */
export function presetToSchedule(p: Preset): CronSchedule {
  const [h, m] = hm(p.time);
  const at = { minute: String(m), hour: String(h) };
  switch (p.kind) {
    case 'minutes':
      return { minute: `*/${p.every}`, hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'hourly':
      return { minute: String(p.minute), hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'daily':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: '*' };
    case 'weekdays':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
    case 'weekly':
      return { ...at, dayOfMonth: '?', month: '*', dayOfWeek: [...new Set(p.days)].sort((a, b) => a - b).join(',') || '2' };
    case 'monthly':
      return { ...at, dayOfMonth: String(p.monthDay), month: '*', dayOfWeek: '?' };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The preset a schedule is, if it is one (so editing a task opens in the simple view). */
export function scheduleToPreset(s: CronSchedule): Preset | null {
  const num = (v: string, max: number) => (/^\d{1,2}$/.test(v) && Number(v) <= max ? Number(v) : null);
  const minute = num(s.minute, 59);
  const hour = num(s.hour, 23);
  const anyDom = s.dayOfMonth === '?' || s.dayOfMonth === '*';
  const anyDow = s.dayOfWeek === '?' || s.dayOfWeek === '*';
  if (s.month !== '*') return null;
  const every = /^\*\/(\d{1,2})$/.exec(s.minute);
  if (every && s.hour === '*' && anyDom && anyDow) return { ...DEFAULT_PRESET, kind: 'minutes', every: Number(every[1]) };
  if (minute !== null && s.hour === '*' && anyDom && anyDow) return { ...DEFAULT_PRESET, kind: 'hourly', minute };
  if (minute === null || hour === null) return null;
  const time = `${pad(hour)}:${pad(minute)}`;
  if (s.dayOfMonth === '?' || (s.dayOfMonth === '*' && s.dayOfWeek === '*')) {
    if (anyDow) return { ...DEFAULT_PRESET, kind: 'daily', time };
    if (s.dayOfMonth === '?' && s.dayOfWeek === '2-6') return { ...DEFAULT_PRESET, kind: 'weekdays', time };
    if (s.dayOfMonth === '?' && /^[1-7](,[1-7])*$/.test(s.dayOfWeek))
      return { ...DEFAULT_PRESET, kind: 'weekly', time, days: s.dayOfWeek.split(',').map(Number) };
    return null;
  }
  if (s.dayOfWeek === '?' && (s.dayOfMonth === 'L' || num(s.dayOfMonth, 31)))
    return { ...DEFAULT_PRESET, kind: 'monthly', time, monthDay: s.dayOfMonth === 'L' ? 'L' : Number(s.dayOfMonth) };
  return null;
}

export interface SchedulePreview {
  errors: Partial<Record<CronField, string>>;
  words: string | null;
  runs: number[];
  bothDays: boolean;
}

/** Words, next runs and errors for a schedule (no React; tested directly). */
export function previewSchedule(s: CronSchedule, now: number, window: RunWindow = {}, count = 5): SchedulePreview {
  const check = validateSchedule(s);
  if (!check.ok) return { errors: check.errors, words: null, runs: [], bothDays: false };
  return { errors: {}, words: describeSchedule(s), runs: nextRuns(s, now, count, window), bothDays: bothDayFieldsSet(s) };
}

export const formatLocal = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
export const formatUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The preset fields each kind reads; the others keep what was last entered (switching kinds back). */
export const KIND_FIELDS: Record<PresetKind, (keyof Preset)[]> = {
  minutes: ['every'],
  hourly: ['minute'],
  daily: ['time'],
  weekdays: ['time'],
  weekly: ['time', 'days'],
  monthly: ['time', 'monthDay'],
};
