/**
 * The organization's history (`portals/<orgId>/history`, "Portal History"): one page of events,
 * and the CSV of a filtered view. The wire contract is src/shared/contract/history.ts; the
 * operation is read by administrators only, and a portal without it (ArcGIS Enterprise) answers
 * "not found" (see isHistoryUnavailable).
 */
import type { HistoryEvent, HistoryResponse } from '../../shared/contract/history.ts';
import { ApiError } from './errors.ts';
import { fetchFile, request, type FetchedFile, type RequestOptions } from './request.ts';

export type { HistoryEvent, HistoryResponse };

export interface HistoryQuery {
  /** Every target type (the Activity page); false or absent: the portal's default (organization events only, unless id or types decide). */
  all?: boolean;
  /** A target id or username. */
  id?: string;
  types?: readonly string[];
  actors?: readonly string[];
  actions?: readonly string[];
  /** Epoch ms, inclusive. */
  fromDate?: number;
  toDate?: number;
  sortOrder?: 'asc' | 'desc';
}

const path = (orgId: string) => `portals/${encodeURIComponent(orgId)}/history`;

function wireParams(q: HistoryQuery) {
  return {
    all: q.all ? true : undefined,
    id: q.id || undefined,
    types: q.types?.length ? q.types : undefined,
    actors: q.actors?.length ? q.actors : undefined,
    actions: q.actions?.length ? q.actions : undefined,
    fromDate: q.fromDate,
    toDate: q.toDate,
    sortOrder: q.sortOrder,
  };
}

/** `GET portals/<orgId>/history`: one page (at most 100), `start` the previous page's nextKey. */
export function getHistory(
  orgId: string,
  query: HistoryQuery & { num?: number; start?: string },
  options: Pick<RequestOptions, 'signal'> = {},
): Promise<HistoryResponse> {
  return request<HistoryResponse>(path(orgId), { ...wireParams(query), num: query.num, start: query.start }, { ...options, method: 'GET' });
}

/** The CSV (f=csv, up to 10,000 events) of the same filtered view, fetched with the token in a header. */
export function fetchHistoryCsv(orgId: string, query: HistoryQuery, options: Pick<RequestOptions, 'signal'> = {}): Promise<FetchedFile> {
  return fetchFile(path(orgId), { ...wireParams(query), f: 'csv' }, options);
}

/**
 * The portal has no history operation (ArcGIS Enterprise, an older portal): it answers 404 or 403
 * (Enterprise refuses resources it does not have), or a 400 whose message says the resource or
 * operation was not found or is not supported. The Activity page is for administrators, who may read
 * history wherever it exists, so a 403 there means the portal does not offer it.
 */
export function isHistoryUnavailable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.code === 404 || err.code === 403) return true;
  return (
    err.code === 400 &&
    /not (be )?found|does not exist|not supported|unknown (operation|resource)|invalid url/i.test(`${err.message} ${err.detailLines.join(' ')}`)
  );
}
