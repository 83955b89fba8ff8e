/**
 * The filters Group Content Search takes besides `q` (facts §4; the public "Group Content Search"
 * page): `bbox` (xmin,ymin,xmax,ymax in WGS84: items whose extent overlaps it; an item without an
 * extent is not found), `categories` (full category paths; a comma list matches any of them, a JSON
 * array of such lists requires each list; at most 8 paths) and `categoryFilters` (up to 3 terms,
 * matched within the item's category paths). Each is one SQL condition over the item `i`.
 */
import { z } from 'zod';
import { trimEnd } from '../../../shared/trim.ts';

const MAX_CATEGORIES = 8;
const MAX_CATEGORY_FILTERS = 3;

/** `bbox`: four numbers, or empty (the Maps SDK sends `bbox=` when it has no extent). */
export const bboxParam = z
  .string()
  .max(200)
  .optional()
  .transform((s, ctx) => {
    if (!s?.trim()) return undefined;
    const n = s.split(',').map((v) => Number(v.trim()));
    if (n.length !== 4 || n.some((v) => !Number.isFinite(v)) || n[0] > n[2] || n[1] > n[3]) {
      ctx.addIssue({ code: 'custom', message: 'must be xmin,ymin,xmax,ymax' });
      return z.NEVER;
    }
    return n as [number, number, number, number];
  });

/** `categories`: `a,b` (any of them) or `[["a","b"],["c"]]` (one of each list). */
export const categoriesParam = z
  .string()
  .max(4096)
  .optional()
  .transform((s, ctx) => {
    if (!s?.trim()) return undefined;
    let lists: string[][];
    if (s.trim().startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(s);
        if (!Array.isArray(parsed)) throw new Error();
        lists = parsed.map((l: unknown) => (Array.isArray(l) ? l : [l]).map(String));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a comma list of category paths or a JSON array of such lists' });
        return z.NEVER;
      }
    } else lists = [s.split(',')];
    lists = lists.map((l) => l.map((c) => c.trim()).filter(Boolean)).filter((l) => l.length);
    if (lists.flat().length > MAX_CATEGORIES) {
      ctx.addIssue({ code: 'custom', message: `can name at most ${MAX_CATEGORIES} categories` });
      return z.NEVER;
    }
    return lists.length ? lists : undefined;
  });

/** `categoryFilters`: up to three terms. */
export const categoryFiltersParam = z
  .string()
  .max(1024)
  .optional()
  .transform((s, ctx) => {
    const terms = (s ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (terms.length > MAX_CATEGORY_FILTERS) {
      ctx.addIssue({ code: 'custom', message: `can name at most ${MAX_CATEGORY_FILTERS} terms` });
      return z.NEVER;
    }
    return terms.length ? terms : undefined;
  });

export interface ItemFilters {
  bbox?: [number, number, number, number];
  categories?: string[][];
  categoryFilters?: string[];
}

/** The conditions of the filters given, binding values through `p`. */
export function itemFilterSql(f: ItemFilters, p: (v: unknown) => string): string[] {
  const out: string[] = [];
  if (f.bbox) {
    const [xmin, ymin, xmax, ymax] = f.bbox.map((v) => `${p(v)}::float8`);
    // extent is [[xmin, ymin], [xmax, ymax]]; an item without four numbers there has no extent.
    const corner = (a: number, b: number) => `(i.extent #>> '{${a},${b}}')::float8`;
    const hasExtent = [0, 1].flatMap((a) => [0, 1].map((b) => `jsonb_typeof(i.extent #> '{${a},${b}}') = 'number'`)).join(' AND ');
    out.push(
      `(CASE WHEN ${hasExtent} THEN ${corner(0, 0)} <= ${xmax} AND ${corner(1, 0)} >= ${xmin} AND ${corner(0, 1)} <= ${ymax} AND ${corner(1, 1)} >= ${ymin} ELSE false END)`,
    );
  }
  // A path matches the category itself or one below it (`/Categories/Water` finds `/Categories/Water/Rivers`).
  for (const list of f.categories ?? []) {
    const any = list.map((c) => {
      const v = p(trimEnd(c.toLowerCase(), '/'));
      return `lower(c) = ${v} OR starts_with(lower(c), ${v} || '/')`;
    });
    out.push(`EXISTS (SELECT 1 FROM unnest(i.categories) c WHERE ${any.join(' OR ')})`);
  }
  // The terms of one categoryFilters are alternatives, as the paths of one categories list are.
  if (f.categoryFilters) {
    const any = f.categoryFilters.map((t) => `strpos(lower(c), ${p(t.toLowerCase())}) > 0`);
    out.push(`EXISTS (SELECT 1 FROM unnest(i.categories) c WHERE ${any.join(' OR ')})`);
  }
  return out;
}
