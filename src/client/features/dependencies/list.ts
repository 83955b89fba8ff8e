/**
 * The organization view's list as it stands in the address (?view=usedByMany&type=Web+Map&age=1y):
 * shareable, kept by the back button, and any value someone typed in is read back safely.
 */
import { z } from 'zod';
import { DEPENDENCY_VIEWS } from '../../../shared/contract/dependencies.ts';

const DAY = 24 * 3600_000;

/** "Not changed for …": how long ago an item's last change must be. */
export const AGE_CHOICES = [
  { value: '', label: 'Any time', ms: 0 },
  { value: '3m', label: '3 months', ms: 91 * DAY },
  { value: '6m', label: '6 months', ms: 182 * DAY },
  { value: '1y', label: '1 year', ms: 365 * DAY },
  { value: '2y', label: '2 years', ms: 730 * DAY },
] as const;
export type AgeChoice = (typeof AGE_CHOICES)[number]['value'];

const listSchema = z.object({
  view: z.enum(DEPENDENCY_VIEWS).catch('unused'),
  owner: z.string().trim().max(128).catch(''),
  type: z.string().trim().max(256).catch(''),
  age: z.enum(AGE_CHOICES.map((a) => a.value) as [AgeChoice, ...AgeChoice[]]).catch(''),
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(25),
});
export type DependencyListState = z.output<typeof listSchema>;

const DEFAULTS: DependencyListState = { view: 'unused', owner: '', type: '', age: '', start: 1, num: 25 };

export function parseDependencyList(params: URLSearchParams): DependencyListState {
  return listSchema.parse(Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, params.get(k) ?? undefined])));
}

export function dependencyListToParams(state: DependencyListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof DependencyListState)[]) {
    if (state[key] !== DEFAULTS[key]) out.set(key, String(state[key]));
  }
  return out;
}

/** The wire's modifiedBefore for an age choice, from `now` rounded down to the hour (so one choice is one question for a while); undefined for "any time". */
export function modifiedBeforeFor(age: AgeChoice, now: number): number | undefined {
  const choice = AGE_CHOICES.find((a) => a.value === age);
  if (!choice?.ms) return undefined;
  return Math.floor(now / 3600_000) * 3600_000 - choice.ms;
}
