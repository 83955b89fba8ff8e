/**
 * Item search (`GET search`, facts §4): only items the caller may see (the rule of canViewItem,
 * written in SQL), `q` parsed by the search-query parser into one condition, paged (num ≤ 100),
 * sorted by title, created, modified, type, owner or numviews — or, with no sortField,
 * authoritative items first, then the most recently modified.
 *
 * Fields: title, owner, type, tags, id, typekeywords, access (private|shared|org|public),
 * contentstatus, orgid, group, name, created / modified (epoch ms, ranges `[a TO b]`).
 * A free term matches title, tags, snippet or description.
 *
 * `total` is exact (searchPage.ts: a large result set is kept until the next change; beyond 200,000
 * matches it is estimated); `nextStart` is exact. `content/groups/<groupId>/search` is the same search
 * within one group (plus bbox and categories, searchFilters.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageEnvelope, pagingParams, sortOrder } from '../../../shared/contract/wire.ts';
import type { Caller } from '../../http/auth.ts';
import { operation, REST } from '../../http/operation.ts';
import { compileQuery, likePattern, parseQuery, prefixPattern, type QueryLeaf } from '../../http/search-query.ts';
import type { Queryable } from '../../store/db.ts';
import { toItem } from './access.ts';
import { SELECT_LISTED_ITEM, type ListedItemRow } from './repo.ts';
import { searchPage, type SearchPage, type SortKey } from './searchPage.ts';
import { bboxParam, categoriesParam, categoryFiltersParam, itemFilterSql } from './searchFilters.ts';
import { visibleGroup } from '../groups/service.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';
import { seesAllOrgItems } from '../../http/policies.ts';
import { GROUP_CONTENT_OPERATIONS } from '../../../shared/contract/groupContent.ts';

export const SORT_FIELDS = ['title', 'created', 'modified', 'type', 'owner', 'numviews'] as const;

export const searchItemsParams = pagingParams.extend({
  q: z.string().max(8192, 'must be at most 8192 characters').default(''),
  sortField: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.union([z.enum(SORT_FIELDS), z.literal('')]))
    .optional(),
  sortOrder,
  searchUserAccess: z.string().optional(),
  searchUserName: z.string().optional(),
  filter: z.string().max(8192).optional(),
});

const SORT_SQL: Record<(typeof SORT_FIELDS)[number], string> = {
  title: 'lower(i.title)',
  created: 'i.created',
  modified: 'i.modified',
  type: 'lower(i.type)',
  owner: 'lower(o.username)',
  numviews: 'i.num_views',
};

const RANGE_COLUMNS: Record<string, string> = { created: 'i.created', modified: 'i.modified', numviews: 'i.num_views' };

/** A date given as epoch ms, or a date text (ISO); undefined for `*` or something unreadable. */
function rangeBound(v: string): number | undefined {
  if (!v || v === '*') return undefined;
  if (/^-?\d+$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

export function itemConditionSql(tree: ReturnType<typeof parseQuery>, p: (v: unknown) => string): string {
  const text = (t: Extract<QueryLeaf, { kind: 'term' }>, col: string) => `${col} ILIKE ${p(t.prefix ? prefixPattern(t.value) : likePattern(t.value))}`;
  const anyEquals = (col: string, v: string) => `EXISTS (SELECT 1 FROM unnest(${col}) x WHERE lower(x) = lower(${p(v)}))`;
  return compileQuery(tree, (t) => {
    if (t.kind === 'range') {
      const col = RANGE_COLUMNS[t.field];
      if (!col) return 'FALSE';
      const [lo, hi] = [rangeBound(t.from), rangeBound(t.to)];
      const parts: string[] = [];
      if (lo !== undefined) parts.push(`${col} ${t.inclusive ? '>=' : '>'} ${p(lo)}`);
      if (hi !== undefined) parts.push(`${col} ${t.inclusive ? '<=' : '<'} ${p(hi)}`);
      return parts.length ? `(${parts.join(' AND ')})` : 'TRUE';
    }
    const v = t.value;
    switch (t.field) {
      case undefined: {
        const pat = t.prefix ? `%${prefixPattern(v)}` : likePattern(v);
        // search_text is the four fields lower-cased and joined by line breaks (migration 016), with
        // the trigram index. A pattern `%term%` whose term has no line break matches the joined text
        // exactly when it matches one field, so that text alone decides; a term with a line break
        // could span two fields, so each field is then tested on its own as well. LIKE against the
        // lower-cased pattern is what ILIKE does. A term without three letters or digits in a row has
        // no trigram to look up: it reads the items (correct, not indexed).
        const param = p(pat);
        const joined = `i.search_text LIKE lower(${param})`;
        if (!v.includes('\n')) return joined;
        return `(${joined} AND (i.title ILIKE ${param} OR i.snippet ILIKE ${param} OR i.description ILIKE ${param} OR array_to_string(i.tags, ',') ILIKE ${param}))`;
      }
      case 'title':
        return t.prefix ? text(t, 'i.title') : `i.title ILIKE ${p(likePattern(v))}`;
      case 'name':
        return `i.name ILIKE ${p(t.prefix ? prefixPattern(v) : likePattern(v))}`;
      case 'owner':
        return t.prefix ? text(t, 'o.username') : `lower(o.username) = lower(${p(v)})`;
      case 'type':
        return t.prefix ? text(t, 'i.type') : `lower(i.type) = lower(${p(v)})`;
      case 'tags':
        // The lower-cased tags and their index items_tags_lower (migration 016).
        return `i.tags_lower @> ARRAY[lower(${p(v)})]`;
      case 'typekeywords':
        return anyEquals('i.type_keywords', v);
      case 'id':
        return `i.id = ${p(v)}`;
      case 'orgid':
        return `i.org_id = ${p(v)}`;
      case 'contentstatus':
        return `i.content_status = ${p(v.toLowerCase())}`;
      case 'ownerfolder':
        // The folder id as the owner's content lists it (facts: `ownerfolder:<folderId>`).
        return `i.folder_id = ${p(v)}`;
      case 'group':
        return `EXISTS (SELECT 1 FROM item_shares gs WHERE gs.item_id = i.id AND gs.group_id = ${p(v)})`;
      case 'access': {
        const a = v.toLowerCase();
        if (a === 'shared') return `(i.access = 'private' AND EXISTS (SELECT 1 FROM item_shares sa WHERE sa.item_id = i.id))`;
        if (a === 'private') return `(i.access = 'private' AND NOT EXISTS (SELECT 1 FROM item_shares sa WHERE sa.item_id = i.id))`;
        return `i.access = ${p(a)}`;
      }
      default:
        // A field this search does not know matches nothing.
        return 'FALSE';
    }
  });
}

export interface ItemSearch {
  caller: Caller | null;
  q: string;
  sortField?: (typeof SORT_FIELDS)[number] | '';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Group Content Search: only items shared to this group (the route has checked the caller may see it). */
  groupId?: string;
  /** Extra conditions over `i` (categories, bbox), with their parameters bound through `p`. */
  filters?: (p: (v: unknown) => string) => string[];
}

export async function searchItems(db: Queryable, s: ItemSearch): Promise<SearchPage<ListedItemRow>> {
  const params: unknown[] = [s.caller?.userId ?? null, s.caller?.orgId ?? null, seesAllOrgItems(s.caller)];
  const p = (v: unknown) => `$${params.push(v)}`;
  // Who may see what (access.ts canViewItem): public; own; the organization's (org items, or all with portal:admin:viewItems); shared to a group of the caller.
  const visible = `(i.access = 'public'
      OR i.owner_id = $1
      OR (i.org_id = $2 AND (i.access = 'org' OR $3::boolean))
      OR EXISTS (SELECT 1 FROM item_shares vs JOIN group_members vm ON vm.group_id = vs.group_id WHERE vs.item_id = i.id AND vm.user_id = $1))`;
  // An upload still open (multipart, not committed) is found by its owner only.
  const constraints = [
    ...(s.groupId ? [`EXISTS (SELECT 1 FROM item_shares gs WHERE gs.item_id = i.id AND gs.group_id = ${p(s.groupId)})`] : []),
    ...(s.filters?.(p) ?? []),
  ];
  const where = [`${visible} AND (i.status <> 'partial' OR i.owner_id = $1)`, ...constraints, itemConditionSql(parseQuery(s.q), p)].join(' AND ');
  // The owners' table only when the query or the order names owners.
  const needsOwner = s.sortField === 'owner' || /\bo\.username\b/.test(where);
  const joins = needsOwner ? 'JOIN users o ON o.id = i.owner_id' : '';
  const dir = s.sortOrder === 'desc' ? 'DESC' : 'ASC';
  // Without a sortField, the order of the index items_default_order (migration 016).
  const order: SortKey[] = s.sortField
    ? [
        [SORT_SQL[s.sortField], dir],
        ['i.id', 'ASC'],
      ]
    : [
        ["(i.content_status IN ('org_authoritative', 'public_authoritative'))", 'DESC NULLS LAST'],
        ['i.modified', 'DESC'],
        ['i.id', 'ASC'],
      ];
  return searchPage<ListedItemRow>(db, { joins, where, params, select: SELECT_LISTED_ITEM }, order, s.offset, s.limit);
}

/** Group Content Search: the search's parameters and the filters only this operation takes. */
export const groupContentSearchParams = searchItemsParams.extend({
  bbox: bboxParam,
  categories: categoriesParam,
  categoryFilters: categoryFiltersParam,
});

/** One page of an item search (`search`, a group's content search) in the search envelope. */
async function searchAnswer(
  db: Queryable,
  caller: Caller | null,
  params: z.output<typeof searchItemsParams>,
  within: Pick<ItemSearch, 'groupId' | 'filters'> = {},
) {
  const { total, estimated, rows } = await searchItems(db, {
    caller,
    q: params.q,
    sortField: params.sortField,
    sortOrder: params.sortOrder,
    offset: params.start - 1,
    limit: params.num,
    ...within,
  });
  return {
    query: params.q,
    ...pageEnvelope(total, params, rows.length),
    ...(estimated ? { totalEstimated: true } : {}),
    results: rows.map(toItem),
  };
}

export function itemSearchRoutes(app: FastifyInstance): void {
  // `content/groups/<groupId>/search` (Group Content Search): the items shared to a group the caller
  // may see, with the search's q, paging and sort, and only the items the caller may see (the same
  // engine: the group is one more condition). A group the caller cannot see answers as one that
  // does not exist. Seeing everything needs both administrative views: the group's and its items'.
  operation(app, {
    method: 'read',
    path: `${REST}/content/groups/:groupId/search`,
    authority: ITEM_OPERATIONS.searchGroupContent,
    params: groupContentSearchParams,
    access: 'public',
    extras: ['totalEstimated'],
    handler: async ({ caller, params, path, portal }) => {
      const group = await visibleGroup(portal.db, path.groupId, caller);
      return searchAnswer(portal.db, caller, params, { groupId: group.id, filters: (p) => itemFilterSql(params, p) });
    },
  });

  // `content/groups/<groupId>` (Group Content): the items shared to the group, paged, as
  // `{total, start, num, nextStart, items}` — the group content search with no query, newest change
  // first, and likewise only the items the caller may see.
  operation(app, {
    method: 'read',
    path: `${REST}/content/groups/:groupId`,
    authority: GROUP_CONTENT_OPERATIONS.groupContent,
    params: pagingParams,
    access: 'public',
    handler: async ({ caller, params, path, portal }) => {
      const group = await visibleGroup(portal.db, path.groupId, caller);
      const page = await searchAnswer(portal.db, caller, { ...params, q: '', sortOrder: 'asc' }, { groupId: group.id });
      return { total: page.total, start: page.start, num: page.num, nextStart: page.nextStart, items: page.results };
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/search`,
    authority: ITEM_OPERATIONS.searchItems,
    params: searchItemsParams,
    access: 'public',
    extras: ['totalEstimated'],
    handler: ({ caller, params, portal }) => searchAnswer(portal.db, caller, params),
  });
}
