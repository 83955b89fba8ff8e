/**
 * The local portal's extras — answer fields and operations the public ArcGIS REST API does not
 * have — and how `LOCAL_EXTRAS=off` takes them away, so that this portal answers as a real one
 * does and the console can be tried against "a portal without our extras" (docs/local-extras.md).
 *
 * Operations declare theirs where they are declared (`localOnly`, `extras`, `localParams` in
 * operation.ts); the error envelope's are listed here. Nothing else needs to know the setting.
 */
import { ApiError } from './errors.ts';

/**
 * Fields of the error envelope only this portal adds: the parameter → problem map forms use, and
 * the readable reasons on each item of a CONT_0291 refusal (the public detail stops at `owner`).
 */
export const ERROR_EXTRAS = ['fieldErrors', 'details.reason', 'details.reasons'] as const;

/** What a portal answers for a path it has no operation at (ArcGIS: 400 GWM_0002 "Invalid URL"). */
export const unknownOperation = (url: string) => new ApiError(400, 'Invalid URL', [`No operation at ${url}.`], 'GWM_0002');

/**
 * A copy of `value` without the fields at `paths`. A path is dotted (`webhooks.lastDelivery`);
 * arrays on the way are walked, so `results.error.details.reasons` reaches every result's every
 * detail. Values that are not plain objects or arrays (strings in `details`, null) stay as they are.
 */
export function withoutExtras<T>(value: T, paths: readonly string[]): T {
  if (paths.length === 0) return value;
  return strip(
    value,
    paths.map((p) => p.split('.')),
  ) as T;
}

function strip(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, paths));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const drop = new Set(paths.filter((p) => p.length === 1).map((p) => p[0]));
  const deeper = new Map<string, string[][]>();
  for (const p of paths) {
    if (p.length > 1) deeper.set(p[0], [...(deeper.get(p[0]) ?? []), p.slice(1)]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (drop.has(key)) continue;
    const rest = deeper.get(key);
    out[key] = rest ? strip(v, rest) : v;
  }
  return out;
}
