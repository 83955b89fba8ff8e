/**
 * How far a member listing or search pages. ArcGIS Online documents that "only the first 10,000
 * results can be paginated; results greater than 10,000 cannot be returned through pagination. The
 * actual number of total returned results may be greater than 10,000" (REST API "Considerations and
 * limitations", Search). With LOCAL_EXTRAS=off this portal answers as ArcGIS Online does, at
 * MEMBER_SEARCH_CAP results (10,000 when absent); with its extras on it pages to the end.
 *
 * The documentation does not say what a `start` past the cap answers. The honest choice taken here:
 * an empty page that still carries the true total, with `nextStart` -1 — the caller learns both that
 * more members match and that paging cannot reach them.
 */
import type { PageEnvelope } from '../../../shared/contract/wire.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { Config } from '../../config.ts';
import { ARCGIS_SEARCH_PAGING_CAP } from '../../../shared/contract/users.ts';

/** The deepest result a search may page to on this portal, or null when paging is not capped. */
export function memberSearchCap(config: Pick<Config, 'localExtras' | 'memberSearchCap'>): number | null {
  return config.localExtras === false ? (config.memberSearchCap ?? ARCGIS_SEARCH_PAGING_CAP) : null;
}

/** The rows one page may read: none past the cap, and none that would pass it. */
export function cappedWindow(cap: number | null, paging: { start: number; num: number }): { offset: number; limit: number } {
  const offset = paging.start - 1;
  if (cap === null) return { offset, limit: paging.num };
  return { offset, limit: Math.max(0, Math.min(paging.num, cap - offset)) };
}

/** The paging envelope, with `nextStart` -1 once the next page would start past the cap. */
export function cappedEnvelope(cap: number | null, total: number, paging: { start: number; num: number }, returned: number): PageEnvelope {
  const envelope = pageEnvelope(total, paging, returned);
  return cap !== null && envelope.nextStart > cap ? { ...envelope, nextStart: -1 } : envelope;
}
