/**
 * The Members page's address state as listing parameters. The status, user type and date filters
 * (and sorting by user type or status) are this portal's extras: on a portal without them they are
 * not sent (the page says they are unavailable instead of showing an unfiltered list as filtered).
 */
import { LOCAL_MEMBER_SORT_FIELDS, type ListMembersParams } from '../../api/index.ts';
import type { MemberListState } from './schemas.ts';

const DAY = 86_400_000;
const dayStart = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The filters and sort of `list` (no paging): what "all matching" means. */
export function memberFilterParams(list: MemberListState, localExtras: boolean): Omit<ListMembersParams, 'start' | 'num'> {
  const params: Omit<ListMembersParams, 'start' | 'num'> = {
    sortField: localExtras || !LOCAL_MEMBER_SORT_FIELDS.includes(list.sortField) ? list.sortField : 'username',
    sortOrder: list.sortOrder,
    q: list.q || undefined,
    role: list.role || undefined,
  };
  if (!localExtras) return params;
  if (list.status) params.disabled = list.status === 'disabled';
  if (list.userType) params.userLicenseType = list.userType;
  // Bounds are exclusive: "before a day" is before it begins, "after a day" is after it ends.
  if (list.lastLoginBefore) params.lastLoginBefore = dayStart(list.lastLoginBefore);
  if (list.lastLoginAfter) params.lastLoginAfter = dayStart(list.lastLoginAfter) + DAY - 1;
  if (list.createdBefore) params.createdBefore = dayStart(list.createdBefore);
  if (list.createdAfter) params.createdAfter = dayStart(list.createdAfter) + DAY - 1;
  return params;
}

/** How many filters are in use (the search box aside), for the folded filter bar's button. */
export function activeFilterCount(list: MemberListState, localExtras: boolean): number {
  const local = [list.status, list.userType, list.lastLoginBefore, list.lastLoginAfter, list.createdBefore, list.createdAfter];
  return (list.role ? 1 : 0) + (localExtras ? local.filter(Boolean).length : 0);
}
