/**
 * The portal (`portals/self`) and the console's own configuration read before sign-in: the one key
 * factory and the read options.
 */
import { queryOptions } from '@tanstack/react-query';
import { getPortal } from '../portals.ts';

export const portalKeys = {
  /** Every read of the signed-in member's organization. */
  all: ['portal'] as const,
  self: ['portal', 'self'] as const,
  /** Before sign-in: the console's configuration, and a portal's name by its URL. */
  consoleConfig: ['signIn', 'consoleConfig'] as const,
  nameOf: (portalUrl: string | null) => ['signIn', 'portalName', portalUrl] as const,
};

/** `portals/self`: the signed-in member's organization, read by several areas under one key. */
export const portalQuery = () =>
  queryOptions({
    queryKey: portalKeys.self,
    queryFn: ({ signal }) => getPortal({ signal }),
  });
