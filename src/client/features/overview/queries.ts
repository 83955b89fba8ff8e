import { queryOptions } from '@tanstack/react-query';
import { getPortal } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** `portals/self`: the signed-in member's organization. */
export const portalQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.portal, 'self'],
    queryFn: ({ signal }) => getPortal({ signal }),
  });
