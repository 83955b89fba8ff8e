/** The organization's defaults for new members (`portals/<org>/userDefaultSettings`): key factory and read options. */
import { queryOptions } from '@tanstack/react-query';
import { getUserDefaultSettings } from '../userDefaultSettings.ts';

export const userDefaultSettingsKeys = {
  of: (orgId: string) => ['userDefaultSettings', orgId] as const,
};

export const userDefaultSettingsQuery = (orgId: string) =>
  queryOptions({
    queryKey: userDefaultSettingsKeys.of(orgId),
    queryFn: ({ signal }) => getUserDefaultSettings(orgId, { signal }),
  });
