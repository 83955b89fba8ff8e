/**
 * Every member matching a list's filters, at any size. A portal pages a search only so far: ArcGIS
 * Online documents that "only the first 10,000 results can be paginated … The actual number of total
 * returned results may be greater than 10,000" (REST API "Considerations and limitations", Search).
 * Past that, the members are read in parts by creation date: `portals/self/users/search` with the
 * filters as `q` AND `created:[a TO b]` (Search reference: a range's ends inclusive, epoch ms), the
 * range halved until each part's total is within what the portal pages; parts are merged by username.
 */
import { listMembers, searchMembers, type ListMembersParams, type MemberFilterParams } from './users.ts';
import type { PortalUser } from './types.ts';
import { ARCGIS_SEARCH_PAGING_CAP } from '../../shared/contract/users.ts';

const PAGE = 100;
const DAY = 86_400_000;

export type MemberFilters = Omit<ListMembersParams, 'start' | 'num'>;

export interface AllMembers {
  members: PortalUser[];
  /** Set when the portal's paging stopped short of the total and the members were read in parts by creation date. */
  partitioned: { parts: number; cap: number } | null;
}

interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: (read: number, total: number) => void;
}

/** A filter that has no documented `q` field to go beside a created range: said, not guessed at. */
export class UnpartitionableFilterError extends Error {}

/**
 * Every member matching `filters`: a page of 100 after another; when the portal stops paging before
 * the total (or the total passes ArcGIS Online's documented 10,000), in parts by creation date.
 */
export async function listAllMembers(orgId: string, filters: MemberFilters, options: ReadOptions = {}): Promise<AllMembers> {
  const found = new Map<string, PortalUser>();
  let total = 0;
  for (let start = 1; start > 0;) {
    const page = await listMembers(orgId, { ...filters, start, num: PAGE }, { signal: options.signal });
    total = page.total;
    for (const u of page.users) found.set(u.username, u);
    options.onProgress?.(found.size, total);
    // Past the documented cap paging cannot finish: go to parts at once rather than read 10,000 first.
    if (start === 1 && total > ARCGIS_SEARCH_PAGING_CAP) return readInParts(orgId, filters, ARCGIS_SEARCH_PAGING_CAP, total, found, options);
    start = page.users.length ? page.nextStart : -1;
  }
  if (found.size >= total) return { members: [...found.values()], partitioned: null };
  // The portal answered the total but stopped paging: its cap is how far it let us read.
  return readInParts(orgId, filters, found.size, total, found, options);
}

/** A value as the Search reference writes one: a plain word as it is, anything else quoted. */
function searchWord(value: string, what: string): string {
  if (/["\\]/.test(value)) throw new UnpartitionableFilterError(`The ${what} filter "${value}" cannot be written as a member search.`);
  return /^[A-Za-z0-9_.@-]+$/.test(value) ? value : `"${value}"`;
}

/**
 * The list's filters as a member search `q`. The documented user fields cover the free text,
 * username, full name and a base role; a custom role id has no documented field, so it is refused.
 * This portal's own filters (status, user type, dates) go as its local parameters, as on the list.
 */
export function filtersAsSearch(filters: MemberFilters): { q: string; params: MemberFilterParams } {
  const terms: string[] = [];
  for (const word of (filters.q ?? '').split(/\s+/).filter(Boolean)) terms.push(searchWord(word, 'search'));
  if (filters.username) terms.push(`username:${searchWord(filters.username, 'username')}`);
  if (filters.fullname) terms.push(`fullname:${searchWord(filters.fullname, 'full name')}`);
  if (filters.role) {
    if (!filters.role.startsWith('org_'))
      throw new UnpartitionableFilterError(
        'This portal pages a search only so far, and a custom role cannot be combined with the creation-date ranges that read past it: choose a base role or no role filter.',
      );
    terms.push(`role:${filters.role}`);
  }
  const { disabled, userLicenseType, lastLoginBefore, lastLoginAfter } = filters;
  return { q: terms.join(' AND '), params: { disabled, userLicenseType, lastLoginBefore, lastLoginAfter } };
}

/** Epoch ms zero-padded to 19 digits, as ArcGIS's search range examples write dates (the local portal takes either form). */
const epoch = (ms: number) => String(ms).padStart(19, '0');

/**
 * The creation dates the matching members span: the first of each end of the list sorted by
 * `created` (a documented sort field), so no part is spent on years with no member.
 */
async function createdSpan(orgId: string, filters: MemberFilters, signal?: AbortSignal): Promise<[number, number]> {
  const end = async (sortOrder: 'asc' | 'desc') =>
    (await listMembers(orgId, { ...filters, sortField: 'created', sortOrder, start: 1, num: 1 }, { signal })).users[0]?.created;
  // createdAfter / createdBefore are exclusive; the ranges' ends are inclusive.
  const lo = (await end('asc')) ?? (filters.createdAfter !== undefined ? filters.createdAfter + 1 : 0);
  const hi = (await end('desc')) ?? (filters.createdBefore ?? Date.now() + DAY) - 1;
  return [lo, Math.max(lo, hi)];
}

async function readInParts(
  orgId: string,
  filters: MemberFilters,
  cap: number,
  total: number,
  found: Map<string, PortalUser>,
  options: ReadOptions,
): Promise<AllMembers> {
  const { q, params } = filtersAsSearch(filters);
  const sort = { sortField: filters.sortField, sortOrder: filters.sortOrder };
  const ranges: [number, number][] = [await createdSpan(orgId, filters, options.signal)];
  let parts = 0;
  while (ranges.length) {
    const [lo, hi] = ranges.shift()!;
    const range = `created:[${epoch(lo)} TO ${epoch(hi)}]`;
    const ask = (start: number) => searchMembers({ ...params, ...sort, q: q ? `(${q}) AND ${range}` : range, start, num: PAGE }, { signal: options.signal });
    const first = await ask(1);
    if (first.total > cap) {
      if (lo === hi)
        throw new Error(
          `More than ${cap} members were created in the same millisecond (${new Date(lo).toISOString()}): the portal cannot page to all of them.`,
        );
      const mid = Math.floor((lo + hi) / 2);
      ranges.unshift([lo, mid], [mid + 1, hi]);
      continue;
    }
    // A part is a range that held members; an empty half costs one request and is not counted.
    if (first.total > 0) parts++;
    for (let page = first; ;) {
      for (const u of page.results) found.set(u.username, u);
      options.onProgress?.(Math.min(found.size, total), total);
      if (page.nextStart < 1 || page.results.length === 0) break;
      page = await ask(page.nextStart);
    }
  }
  return { members: [...found.values()], partitioned: { parts, cap } };
}
