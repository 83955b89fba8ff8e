import { queryOptions } from '@tanstack/react-query';
import { listCollaborationEvents, listCollaborations, listParticipants, listWorkspaces } from '../../api/index.ts';

export const collaborationKeys = {
  all: (orgId: string) => ['collaborations', orgId] as const,
  one: (orgId: string, id: string) => ['collaborations', orgId, id] as const,
};

export const collaborationsQuery = (orgId: string, start: number) =>
  queryOptions({
    queryKey: [...collaborationKeys.all(orgId), 'list', start],
    queryFn: ({ signal }) => listCollaborations(orgId, { start, num: 20 }, { signal }),
  });

/** Participants and workspaces of one collaboration (each at most 100; a collaboration rarely has more). */
export const participantsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...collaborationKeys.one(orgId, id), 'participants'],
    queryFn: ({ signal }) => listParticipants(orgId, id, { num: 100 }, { signal }),
  });

export const workspacesQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...collaborationKeys.one(orgId, id), 'workspaces'],
    queryFn: ({ signal }) => listWorkspaces(orgId, id, { num: 100 }, { signal }),
  });

export const eventsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...collaborationKeys.one(orgId, id), 'events'],
    queryFn: ({ signal }) => listCollaborationEvents(orgId, id, { num: 10 }, { signal }),
  });
