/** The Activity page's filter form: what may be typed, and the history query it becomes. */
import { z } from 'zod';
import type { HistoryQuery } from '../../api/index.ts';

const dateText = z
  .string()
  .trim()
  .refine((s) => s === '' || !Number.isNaN(Date.parse(s)), 'Enter a date such as 2026-11-25.');

export const filterSchema = z
  .object({
    actor: z.string().trim().max(128, 'At most 128 characters.'),
    action: z.string(),
    type: z.string(),
    id: z.string().trim().max(128, 'At most 128 characters.'),
    from: dateText,
    to: dateText,
  })
  .refine((f) => !f.from || !f.to || Date.parse(f.from) <= Date.parse(f.to), { path: ['to'], message: 'The end is before the start.' });

export type Filters = z.infer<typeof filterSchema>;
export const NO_FILTERS: Filters = { actor: '', action: '', type: '', id: '', from: '', to: '' };

const DAY = 24 * 60 * 60 * 1000;

/** The query for the filters; `all` so every target type is listed, not only organization events. The end date is inclusive (its whole day). */
export function queryOf(f: Filters): HistoryQuery {
  return {
    all: true,
    actors: f.actor ? [f.actor] : undefined,
    actions: f.action ? [f.action] : undefined,
    types: f.type ? [f.type] : undefined,
    id: f.id || undefined,
    fromDate: f.from ? Date.parse(f.from) : undefined,
    toDate: f.to ? Date.parse(f.to) + DAY - 1 : undefined,
  };
}
