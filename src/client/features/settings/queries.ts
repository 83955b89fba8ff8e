import { queryOptions } from '@tanstack/react-query';
import { getUserDefaultSettings, searchGroups } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const defaultsQuery = (orgId: string) =>
  queryOptions({
    queryKey: queryKeys.userDefaultSettings(orgId),
    queryFn: ({ signal }) => getUserDefaultSettings(orgId, { signal }),
  });

/** The organization's groups, by title (the first 100): what new members may join by default. */
export const orgGroupsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...queryKeys.groups, 'org', orgId],
    queryFn: ({ signal }) => searchGroups({ q: `orgid:${orgId}`, num: 100, sortField: 'title', sortOrder: 'asc' }, { signal }),
  });
