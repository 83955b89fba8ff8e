/**
 * A task's schedule in words, for the console (cron.ts validates and steps it for both halves).
 * Apart from cron.ts so that the service, which never describes a schedule, does not load cronstrue.
 */
import cronstrue from 'cronstrue';
import { bothDayFieldsSet, checked, CRON_FIELDS, type CronSchedule } from './cron.ts';

/** The schedule in plain English (times in UTC), e.g. "At 07:30 AM, Monday through Friday". */
export function describeSchedule(s: CronSchedule): string {
  const style = checked(s);
  const expr = CRON_FIELDS.map((f) => s[f].trim().toUpperCase()).join(' ');
  const words = cronstrue.toString(expr, { dayOfWeekStartIndexZero: style === 'unix', throwExceptionOnParseError: true });
  return bothDayFieldsSet(s) ? `${words} (a day matching either day field)` : words;
}
