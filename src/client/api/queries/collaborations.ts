/** Collaborations (`portals/<org>/collaborations`): the one key factory and the read options. */
import { queryOptions } from '@tanstack/react-query';
import {
  listCollaborationEvents,
  listCollaborations,
  listGuestInvitations,
  listHostInvitations,
  listParticipantCandidates,
  listParticipants,
  listWorkspaces,
} from '../collaborations.ts';

export const collaborationKeys = {
  all: (orgId: string) => ['collaborations', orgId] as const,
  one: (orgId: string, id: string) => ['collaborations', orgId, id] as const,
  list: (orgId: string, start: number) => ['collaborations', orgId, 'list', start] as const,
  participants: (orgId: string, id: string) => ['collaborations', orgId, id, 'participants'] as const,
  workspaces: (orgId: string, id: string) => ['collaborations', orgId, id, 'workspaces'] as const,
  events: (orgId: string, id: string) => ['collaborations', orgId, id, 'events'] as const,
  invitations: (orgId: string, id: string) => ['collaborations', orgId, id, 'invitations'] as const,
  guestInvitations: (orgId: string) => ['collaborations', orgId, 'guestInvitations'] as const,
  candidates: (orgId: string) => ['collaborations', orgId, 'candidates'] as const,
};

export const collaborationsQuery = (orgId: string, start: number) =>
  queryOptions({
    queryKey: collaborationKeys.list(orgId, start),
    queryFn: ({ signal }) => listCollaborations(orgId, { start, num: 20 }, { signal }),
  });

/** Participants and workspaces of one collaboration (each at most 100; a collaboration rarely has more). */
export const participantsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: collaborationKeys.participants(orgId, id),
    queryFn: ({ signal }) => listParticipants(orgId, id, { num: 100 }, { signal }),
  });

export const workspacesQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: collaborationKeys.workspaces(orgId, id),
    queryFn: ({ signal }) => listWorkspaces(orgId, id, { num: 100 }, { signal }),
  });

export const eventsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: collaborationKeys.events(orgId, id),
    queryFn: ({ signal }) => listCollaborationEvents(orgId, id, { num: 10 }, { signal }),
  });

/** The host's invitations of one collaboration (the documented list), newest first. */
export const hostInvitationsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: collaborationKeys.invitations(orgId, id),
    queryFn: ({ signal }) => listHostInvitations(orgId, id, { signal }),
  });

/** The invitations addressed to the organization (local portal). */
export const guestInvitationsQuery = (orgId: string) =>
  queryOptions({
    queryKey: collaborationKeys.guestInvitations(orgId),
    queryFn: ({ signal }) => listGuestInvitations(orgId, { signal }),
  });

/**
 * Organizations the host may invite (local portal): the first hundred by name, searched in the
 * list itself — a service holds few organizations.
 */
export const candidatesQuery = (orgId: string) =>
  queryOptions({
    queryKey: collaborationKeys.candidates(orgId),
    queryFn: ({ signal }) => listParticipantCandidates(orgId, '', { signal }),
    staleTime: 60_000,
  });
