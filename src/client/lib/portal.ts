/** `portals/self`: the signed-in member's organization, read by several areas under one key. */
import { queryOptions } from '@tanstack/react-query';
import { getPortal } from '../api/index.ts';
import { queryKeys } from './queryKeys.ts';

export const portalQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.portal, 'self'],
    queryFn: ({ signal }) => getPortal({ signal }),
  });
