/**
 * The members a bulk action works on: the rows ticked, or every member matching the list's filters
 * (read a page of 100 after another, with how far it has read — the preview needs each one's role,
 * user type and status). Where the portal pages a search only so far, they are read in parts by
 * creation date (api/allMembers.ts), and `partitioned` says so for the preview.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { listAllMembers, type AllMembers, type ListMembersParams, type PortalUser } from '../../../api/index.ts';
import { userKeys } from '../../../api/queries/users.ts';

export type BulkTarget =
  { kind: 'rows'; members: readonly PortalUser[] } | { kind: 'matching'; filters: Omit<ListMembersParams, 'start' | 'num'>; total: number };

export function useMatchingMembers(orgId: string, target: BulkTarget) {
  const [read, setRead] = useState({ done: 0, total: target.kind === 'matching' ? target.total : 0 });
  const matching = useQuery({
    queryKey: [...userKeys.members(orgId), 'all', target.kind === 'matching' ? target.filters : null],
    queryFn: ({ signal }) =>
      target.kind === 'matching' ? listAllMembers(orgId, target.filters, { signal, onProgress: (done, total) => setRead({ done, total }) }) : null,
    enabled: target.kind === 'matching',
    // Read afresh for every bulk action: the preview must be of the members as they are now.
    gcTime: 0,
    staleTime: 0,
  });
  if (target.kind === 'rows') return { members: target.members, partitioned: null, read: null, error: null, retry: () => {} };
  const data = matching.data as AllMembers | undefined;
  return { members: data?.members, partitioned: data?.partitioned ?? null, read, error: matching.error, retry: () => void matching.refetch() };
}
