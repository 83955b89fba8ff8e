/**
 * Wire-level value shapes. Parameters arrive flattened (facts §1.4): booleans as "true"/"false",
 * numbers as decimal text, lists comma-joined, objects as JSON text. These schemas accept exactly
 * that (and the already-typed values the console's own code passes) and produce typed values.
 */
import { z } from 'zod';
import { LIMITS } from '../limits.ts';

export const wireBool = z
  .union([z.boolean(), z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False', ''])])
  .transform((v) => v === true || (typeof v === 'string' && v.toLowerCase() === 'true'));

export const wireInt = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, 'must be a whole number'),
    ])
    .transform((v) => Number(v))
    .pipe(z.number().int().min(min).max(max));

/** `a,b,c` → ['a','b','c'] (trimmed, blanks dropped). A JSON array text is accepted too. */
export const commaList = z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
  if (Array.isArray(v)) return v.map((s) => s.trim()).filter(Boolean);
  const text = v.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return parsed.map((s) => s.trim()).filter(Boolean);
    } catch {
      /* fall through to the error below */
    }
    ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list or a JSON array of strings' });
    return z.NEVER;
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
});

/** A JSON object sent as text (or already an object). */
export const jsonObject = <T extends z.ZodType>(shape: T) =>
  z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .transform((v, ctx) => {
      let parsed: unknown = v;
      if (typeof v === 'string') {
        try {
          parsed = JSON.parse(v) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
          return z.NEVER;
        }
      }
      // Deeper values overflow the stack of whatever walks them next (JSON.stringify, jsonb).
      if (nestedDeeperThan(parsed, LIMITS.jsonDepth)) {
        ctx.addIssue({ code: 'custom', message: `must not be nested more than ${LIMITS.jsonDepth} levels deep` });
        return z.NEVER;
      }
      return parsed;
    })
    .pipe(shape);

/** Whether arrays and objects nest deeper than `max` levels (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

export const responseFormat = z.enum(['json', 'pjson']).default('json');

/** Paging parameters of every list: 1-based `start`, `num` at most 100. */
export const pagingParams = z.object({
  start: wireInt(1, Number.MAX_SAFE_INTEGER).default(1),
  num: wireInt(0, Number.MAX_SAFE_INTEGER)
    .default(LIMITS.defaultPageSize)
    .transform((n) => Math.min(n, LIMITS.maxPageSize)),
});
export type Paging = z.output<typeof pagingParams>;

export const sortOrder = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(['asc', 'desc']))
  .default('asc');

/** The paging envelope every list answer carries. */
export interface PageEnvelope {
  total: number;
  start: number;
  num: number;
  nextStart: number;
}

export function pageEnvelope(total: number, paging: Paging, returned: number): PageEnvelope {
  const next = paging.start + returned;
  return { total, start: paging.start, num: returned, nextStart: returned > 0 && next <= total ? next : -1 };
}
