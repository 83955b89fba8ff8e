import { describe, expect, it } from 'vitest';
import { bothDayFieldsSet, nextRun, nextRuns, scheduleStyle, validateSchedule, type CronSchedule } from './cron.ts';
import { describeSchedule } from './cronWords.ts';

const sched = (expr: string): CronSchedule => {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = expr.split(' ');
  return { minute, hour, dayOfMonth, month, dayOfWeek };
};
const utc = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);
const iso = (ms: number[]) => ms.map((t) => new Date(t).toISOString().replace(':00.000Z', 'Z'));

describe('next runs (UTC) for known expressions', () => {
  // [expression, after, the next runs]
  const table: [string, string, string[]][] = [
    ['*/1 * * * ?', '2026-03-01T10:00', ['2026-03-01T10:01Z', '2026-03-01T10:02Z', '2026-03-01T10:03Z']],
    ['30 7 ? * 2-6', '2026-11-20T08:00', ['2026-11-23T07:30Z', '2026-11-24T07:30Z', '2026-11-25T07:30Z']], // Fri 20th → Mon
    ['30 7 ? * MON-FRI', '2026-11-21T00:00', ['2026-11-23T07:30Z', '2026-11-24T07:30Z', '2026-11-25T07:30Z']],
    ['0 0 L * ?', '2024-01-15T00:00', ['2024-01-31T00:00Z', '2024-02-29T00:00Z', '2024-03-31T00:00Z', '2024-04-30T00:00Z']], // leap year
    ['0 0 L * ?', '2025-01-31T00:00', ['2025-02-28T00:00Z', '2025-03-31T00:00Z']],
    ['0 12 29 2 ?', '2024-03-01T00:00', ['2028-02-29T12:00Z', '2032-02-29T12:00Z']],
    ['0 0 31 * ?', '2026-01-01T00:00', ['2026-01-31T00:00Z', '2026-03-31T00:00Z', '2026-05-31T00:00Z']], // months without a 31st are skipped
    ['0 9 15W * ?', '2026-02-01T00:00', ['2026-02-16T09:00Z', '2026-03-16T09:00Z', '2026-04-15T09:00Z']], // Sun 15 Feb → Mon 16; Sun 15 Mar → Mon 16
    ['0 9 1W * ?', '2026-02-01T00:00', ['2026-02-02T09:00Z', '2026-03-02T09:00Z', '2026-04-01T09:00Z']], // W never crosses into the previous month
    ['0 9 LW * ?', '2026-01-01T00:00', ['2026-01-30T09:00Z', '2026-02-27T09:00Z', '2026-03-31T09:00Z']],
    ['0 10 ? * 6#3', '2026-01-01T00:00', ['2026-01-16T10:00Z', '2026-02-20T10:00Z', '2026-03-20T10:00Z']], // third Friday
    ['0 10 ? * 2#1', '2026-06-01T10:00', ['2026-07-06T10:00Z', '2026-08-03T10:00Z']], // first Monday; 1 Jun itself is excluded (strictly after)
    ['0 10 ? * 6L', '2026-01-01T00:00', ['2026-01-30T10:00Z', '2026-02-27T10:00Z', '2026-03-27T10:00Z']], // last Friday
    ['0 0 ? * 1', '2026-11-22T00:00', ['2026-11-29T00:00Z', '2026-12-06T00:00Z']], // Quartz 1 = Sunday
    ['0 0 ? * 7', '2026-11-22T00:00', ['2026-11-28T00:00Z']], // Quartz 7 = Saturday
    ['0 0 ? * L', '2026-11-22T00:00', ['2026-11-28T00:00Z']], // Quartz L alone = Saturday
    ['0 0 * * 0', '2026-11-21T00:00', ['2026-11-22T00:00Z', '2026-11-29T00:00Z']], // Unix 0 = Sunday (python's weekly)
    ['0 0 * * 7', '2026-11-21T00:00', ['2026-11-22T00:00Z']], // Unix 7 = Sunday too
    ['0 0 * * 1-5', '2026-11-21T00:00', ['2026-11-23T00:00Z', '2026-11-24T00:00Z']], // Unix 1-5 = Monday–Friday
    ['0 0 * * *', '2026-12-31T23:59', ['2027-01-01T00:00Z', '2027-01-02T00:00Z']], // year end
    ['0 0 1,15 * 1', '2026-02-01T00:00', ['2026-02-02T00:00Z', '2026-02-09T00:00Z', '2026-02-15T00:00Z', '2026-02-16T00:00Z']], // Unix: either day field
    ['5/20 */6 ? JAN,JUL *', '2026-01-01T00:00', ['2026-01-01T00:05Z', '2026-01-01T00:25Z', '2026-01-01T00:45Z', '2026-01-01T06:05Z']],
    ['0 2 ? * 2/2', '2026-11-22T00:00', ['2026-11-23T02:00Z', '2026-11-25T02:00Z', '2026-11-27T02:00Z', '2026-11-30T02:00Z']], // Mon, Wed, Fri
    ['0 0 1 */5 ?', '2026-01-15T00:00', ['2026-06-01T00:00Z', '2026-11-01T00:00Z', '2027-01-01T00:00Z']],
  ];
  for (const [expr, after, expected] of table) {
    it(`${expr} after ${after}`, () => {
      expect(iso(nextRuns(sched(expr), utc(after), expected.length))).toEqual(expected);
    });
  }

  it('a run exactly at `after` is not included; the start date is inclusive and the end date bounds the list', () => {
    const s = sched('0 * ? * *');
    expect(iso([nextRun(s, utc('2026-01-01T10:00'))!])).toEqual(['2026-01-01T11:00Z']);
    expect(iso(nextRuns(s, utc('2026-01-01T00:00'), 10, { startDate: utc('2026-01-01T05:00'), endDate: utc('2026-01-01T07:00') }))).toEqual([
      '2026-01-01T05:00Z',
      '2026-01-01T06:00Z',
      '2026-01-01T07:00Z',
    ]);
    expect(nextRun(s, utc('2026-01-01T07:00'), { endDate: utc('2026-01-01T07:30') })).toBeNull();
  });

  it('is UTC whatever the process time zone (no daylight-saving shifts)', () => {
    // 29 Mar 2026 is the EU spring-forward day; in UTC every hour exists once.
    expect(iso(nextRuns(sched('30 * ? * *'), utc('2026-03-29T00:00'), 3))).toEqual(['2026-03-29T00:30Z', '2026-03-29T01:30Z', '2026-03-29T02:30Z']);
  });
});

describe('validation names the field and the problem', () => {
  const bad: [string, keyof CronSchedule, RegExp][] = [
    ['60 * ? * *', 'minute', /60 is outside 0–59/],
    ['* 24 ? * *', 'hour', /24 is outside 0–23/],
    ['* * 0 * ?', 'dayOfMonth', /0 is outside 1–31/],
    ['* * 32 * ?', 'dayOfMonth', /outside/],
    ['* * ? 13 *', 'month', /13 is outside 1–12/],
    ['* * ? FOO *', 'month', /'FOO' is not a number or a name/],
    ['* * ? * 0', 'dayOfWeek', /0 is outside 1–7/], // Quartz numbering once a ? is present
    ['* * ? * 8', 'dayOfWeek', /outside/],
    ['* * ? * ?', 'dayOfWeek', /only one of dayOfMonth and dayOfWeek/],
    ['? * * * *', 'minute', /only in dayOfMonth and dayOfWeek/],
    ['*/0 * ? * *', 'minute', /step '0' must be a positive/],
    ['*/x * ? * *', 'minute', /step 'x'/i],
    ['1/2/3 * ? * *', 'minute', /more than one \//],
    ['30-10 * ? * *', 'minute', /runs backwards/],
    ['1,,2 * ? * *', 'minute', /empty list entry/],
    ['L * ? * *', 'minute', /not allowed in minute/],
    ['* * 15X * ?', 'dayOfMonth', /'15X' is not a number/],
    ['* * LX * ?', 'dayOfMonth', /L, LW or nW/],
    ['* * 32W * ?', 'dayOfMonth', /32 is outside/],
    ['* * ? * 6#6', 'dayOfWeek', /#6 must be 1–5/],
    ['* * ? * 9L', 'dayOfWeek', /9 is outside/],
    ['* * ? * 2C', 'dayOfWeek', /'C' \(calendar\) is not supported/],
    ['* * * * L', 'dayOfWeek', /Quartz style/],
  ];
  for (const [expr, field, message] of bad) {
    it(`${expr} → ${field}`, () => {
      const check = validateSchedule(sched(expr));
      expect(check.ok).toBe(false);
      if (check.ok) return;
      expect(Object.keys(check.errors)).toEqual([field]);
      expect(check.errors[field]).toMatch(message);
    });
  }

  it('names every missing field and refuses over-long text', () => {
    const check = validateSchedule({ minute: '', hour: ' ', dayOfMonth: '*', month: '*', dayOfWeek: 'x'.repeat(101) });
    expect(check).toEqual({ ok: false, errors: { minute: 'is required', hour: 'is required', dayOfWeek: 'must be at most 100 characters' } });
  });

  it('month and day names, including those with a C in them, are accepted', () => {
    expect(validateSchedule(sched('0 0 ? OCT-DEC SUN,FRI')).ok).toBe(true);
    expect(validateSchedule(sched('0 0 ? * FRIL')).ok).toBe(true);
    expect(validateSchedule(sched('0 0 ? * FRI#2')).ok).toBe(true);
  });

  it('the style follows from ?: Quartz with one, Unix (lenient) without', () => {
    expect(scheduleStyle(sched('0 0 ? * 1'))).toBe('quartz');
    expect(scheduleStyle(sched('0 0 * * 0'))).toBe('unix');
    expect(validateSchedule(sched('0 0 * * *'))).toEqual({ ok: true, style: 'unix' });
    expect(nextRuns(sched('*/1 * * * ?'), 0, 1)).toEqual([60_000]);
  });

  it('invalid schedules throw from describe and nextRuns with the field named', () => {
    expect(() => describeSchedule(sched('61 * ? * *'))).toThrow(/minute '61': 61 is outside 0–59/);
    expect(() => nextRuns(sched('* * ? * ?'), 0, 1)).toThrow(/dayOfWeek/);
  });
});

describe('words', () => {
  it.each([
    ['30 7 ? * 2-6', 'At 07:30 AM, Monday through Friday'],
    ['30 7 * * 1-5', 'At 07:30 AM, Monday through Friday'], // the same days in Unix numbering
    ['0 0 L * ?', 'At 12:00 AM, on the last day of the month'],
    ['0 10 ? * 6#3', 'At 10:00 AM, on the third Friday of the month'],
    ['0 10 ? * 6L', 'At 10:00 AM, on the last Friday of the month'],
    ['0 9 15W * ?', 'At 09:00 AM, on the weekday nearest day 15 of the month'],
    ['*/15 * ? * *', 'Every 15 minutes'],
    ['0 0 * * 0', 'At 12:00 AM, only on Sunday'],
    ['0 0 ? * 1', 'At 12:00 AM, only on Sunday'],
  ])('%s → %s', (expr, words) => {
    expect(describeSchedule(sched(expr))).toBe(words);
  });

  it('says when both day fields are set', () => {
    expect(bothDayFieldsSet(sched('0 0 1 * 2'))).toBe(true);
    expect(bothDayFieldsSet(sched('0 0 1 * ?'))).toBe(false);
    expect(describeSchedule(sched('0 0 1 * 2'))).toMatch(/either day field/);
  });
});
