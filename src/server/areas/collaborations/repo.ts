/** SQL for collaborations, participants, workspaces, invitations and their events. */
import type { HistoryOperation } from '../../../shared/contract/history.ts';
import { recordEvent } from '../../store/events.ts';
import type { InvitationState, ParticipantStatus, WorkspaceAccess, WorkspaceConfig } from '../../../shared/contract/collaborations.ts';
import type { Queryable } from '../../store/db.ts';

export interface CollaborationRow {
  id: string;
  host_org_id: string;
  host_name: string;
  owner_username: string;
  name: string;
  description: string;
  created: number;
  modified: number;
  /** The asking organization's participation. */
  my_role: 'host' | 'guest';
  my_status: ParticipantStatus;
  active_participants: number;
  workspace_count: number;
}

/** `$1` is the asking organization. Rows the organization takes part in (host, or active guest). */
const SELECT_COLLABORATION = `
  SELECT c.*, h.name AS host_name, o.username AS owner_username, me.role AS my_role, me.status AS my_status,
         (SELECT count(*)::int FROM collaboration_participants p WHERE p.collaboration_id = c.id AND p.status = 'active') AS active_participants,
         (SELECT count(*)::int FROM collaboration_workspaces w WHERE w.collaboration_id = c.id) AS workspace_count
    FROM collaborations c
    JOIN organizations h ON h.id = c.host_org_id
    JOIN users o ON o.id = c.owner_id
    JOIN collaboration_participants me ON me.collaboration_id = c.id AND me.org_id = $1
   WHERE (me.role = 'host' OR me.status = 'active')`;

export async function listCollaborations(q: Queryable, orgId: string, offset: number, limit: number): Promise<{ total: number; rows: CollaborationRow[] }> {
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM collaboration_participants me WHERE me.org_id = $1 AND (me.role = 'host' OR me.status = 'active')`,
    [orgId],
  );
  const rows = await q.query<CollaborationRow>(`${SELECT_COLLABORATION} ORDER BY c.created, c.id OFFSET $2 LIMIT $3`, [orgId, offset, limit]);
  return { total: n, rows };
}

export async function findCollaboration(q: Queryable, orgId: string, id: string): Promise<CollaborationRow | undefined> {
  const [row] = await q.query<CollaborationRow>(`${SELECT_COLLABORATION} AND c.id = $2`, [orgId, id]);
  return row;
}

export interface ParticipantRow {
  collaboration_id: string;
  org_id: string;
  org_name: string;
  org_description: string;
  role: 'host' | 'guest';
  status: ParticipantStatus;
  contact_email: string | null;
  contact_first: string | null;
  contact_last: string | null;
  created: number;
  modified: number;
}

const SELECT_PARTICIPANT = `
  SELECT p.*, o.name AS org_name, o.description AS org_description, u.email AS contact_email, u.first_name AS contact_first, u.last_name AS contact_last
    FROM collaboration_participants p
    JOIN organizations o ON o.id = p.org_id
    LEFT JOIN users u ON u.id = p.contact_user_id
   WHERE p.collaboration_id = $1`;

export async function listParticipants(q: Queryable, collaborationId: string): Promise<ParticipantRow[]> {
  return q.query<ParticipantRow>(`${SELECT_PARTICIPANT} ORDER BY (p.role = 'host') DESC, p.created, p.org_id`, [collaborationId]);
}

export async function findParticipant(q: Queryable, collaborationId: string, orgId: string, lock = false): Promise<ParticipantRow | undefined> {
  if (lock) await q.query('SELECT 1 FROM collaboration_participants WHERE collaboration_id = $1 AND org_id = $2 FOR UPDATE', [collaborationId, orgId]);
  const [row] = await q.query<ParticipantRow>(`${SELECT_PARTICIPANT} AND p.org_id = $2`, [collaborationId, orgId]);
  return row;
}

export interface WorkspaceRow {
  id: string;
  collaboration_id: string;
  name: string;
  description: string;
  config: WorkspaceConfig;
  created: number;
  modified: number;
}

export interface LinkRow {
  workspace_id: string;
  workspace_name: string;
  org_id: string;
  org_name: string;
  access: WorkspaceAccess;
  group_id: string | null;
  group_title: string | null;
  exchanging: boolean;
  stopped: number | null;
}

export async function listWorkspaces(q: Queryable, collaborationId: string): Promise<WorkspaceRow[]> {
  return q.query<WorkspaceRow>('SELECT * FROM collaboration_workspaces WHERE collaboration_id = $1 ORDER BY created, id', [collaborationId]);
}

export async function listLinks(q: Queryable, collaborationId: string): Promise<LinkRow[]> {
  return q.query<LinkRow>(
    `SELECT l.workspace_id, w.name AS workspace_name, l.org_id, o.name AS org_name, l.access, l.group_id, g.title AS group_title, l.exchanging, l.stopped
       FROM collaboration_workspace_links l
       JOIN collaboration_workspaces w ON w.id = l.workspace_id
       JOIN organizations o ON o.id = l.org_id
       JOIN collaboration_participants p ON p.collaboration_id = w.collaboration_id AND p.org_id = l.org_id
       LEFT JOIN groups g ON g.id = l.group_id
      WHERE w.collaboration_id = $1
      ORDER BY w.created, w.id, (p.role = 'host') DESC, p.created, l.org_id`,
    [collaborationId],
  );
}

/** Stops every workspace exchange of `orgId` in the collaboration; answers the workspaces stopped. */
export async function stopExchange(q: Queryable, collaborationId: string, orgId: string, now: number): Promise<{ id: string; name: string }[]> {
  return q.query<{ id: string; name: string }>(
    `UPDATE collaboration_workspace_links l SET exchanging = false, stopped = $3
       FROM collaboration_workspaces w
      WHERE w.id = l.workspace_id AND w.collaboration_id = $1 AND l.org_id = $2 AND l.exchanging
      RETURNING w.id, w.name`,
    [collaborationId, orgId, now],
  );
}

export async function setParticipantStatus(q: Queryable, collaborationId: string, orgId: string, status: ParticipantStatus, now: number): Promise<void> {
  await q.query('UPDATE collaboration_participants SET status = $3, modified = $4 WHERE collaboration_id = $1 AND org_id = $2', [
    collaborationId,
    orgId,
    status,
    now,
  ]);
}

export async function cancelInvitations(q: Queryable, collaborationId: string, orgId: string, now: number): Promise<void> {
  await q.query(`UPDATE collaboration_invitations SET state = 'cancelled', modified = $3 WHERE collaboration_id = $1 AND org_id = $2 AND state = 'pending'`, [
    collaborationId,
    orgId,
    now,
  ]);
}

export interface CollaborationEvent {
  collaborationId: string;
  operation: string;
  orgId: string;
  actor: { userId: string; username: string } | null;
  properties: Record<string, unknown>;
  when: number;
}

/** Collaboration log operation → the organization history's operation. */
const HISTORY_OP: Record<string, HistoryOperation> = {
  create: 'createCollaboration',
  addWorkspace: 'addWorkspace',
  inviteParticipant: 'inviteParticipant',
  acceptInvitation: 'acceptInvitation',
  declineInvitation: 'declineInvitation',
  removeParticipant: 'removeParticipant',
  removeParticipation: 'removeParticipant',
};

/**
 * The collaboration's own log (shared with its participants), and the same change in the acting
 * organization's history (the events outbox), in the caller's transaction.
 */
export async function recordCollaborationEvent(q: Queryable, e: CollaborationEvent): Promise<void> {
  await q.query(
    `INSERT INTO collaboration_events (collaboration_id, operation, org_id, user_id, username, properties, created) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [e.collaborationId, e.operation, e.orgId, e.actor?.userId ?? null, e.actor?.username ?? null, JSON.stringify(e.properties), e.when],
  );
  const [c] = await q.query<{ name: string }>('SELECT name FROM collaborations WHERE id = $1', [e.collaborationId]);
  await recordEvent(q, {
    orgId: e.orgId,
    source: 'collaboration',
    operation: e.operation,
    subjectId: e.collaborationId,
    actor: e.actor ?? null,
    when: e.when,
    history: { op: HISTORY_OP[e.operation] ?? 'updateCollaboration', title: c?.name, data: { ...e.properties, collaborationOperation: e.operation } },
  });
}

export async function listCollaborationEvents(q: Queryable, collaborationId: string, offset: number, limit: number) {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM collaboration_events WHERE collaboration_id = $1', [collaborationId]);
  const rows = await q.query<{ operation: string; org_id: string; username: string | null; properties: Record<string, unknown>; created: number }>(
    'SELECT operation, org_id, username, properties, created FROM collaboration_events WHERE collaboration_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3',
    [collaborationId, offset, limit],
  );
  return { total: n, rows };
}

export interface InvitationRow {
  id: string;
  collaboration_id: string;
  collaboration_name: string;
  host_org_id: string;
  host_name: string;
  org_id: string;
  guest_name: string;
  workspaces: Record<string, WorkspaceAccess>;
  /** Stored states only: `expired` is read from `expires` (service.ts invitationState). */
  state: Exclude<InvitationState, 'expired'>;
  /** When the guest can no longer answer it (epoch ms); null: never. */
  expires: number | null;
  created: number;
  modified: number;
}

const SELECT_INVITATION = `
  SELECT i.*, c.name AS collaboration_name, c.host_org_id, h.name AS host_name, g.name AS guest_name
    FROM collaboration_invitations i
    JOIN collaborations c ON c.id = i.collaboration_id
    JOIN organizations h ON h.id = c.host_org_id
    JOIN organizations g ON g.id = i.org_id`;

export async function pendingInvitations(q: Queryable, orgId: string): Promise<InvitationRow[]> {
  return q.query<InvitationRow>(`${SELECT_INVITATION} WHERE i.org_id = $1 AND i.state = 'pending' ORDER BY i.created, i.id`, [orgId]);
}

/** An invitation addressed to the organization (the guest's side). */
export async function findInvitation(q: Queryable, orgId: string, id: string, lock = false): Promise<InvitationRow | undefined> {
  if (lock) await q.query('SELECT 1 FROM collaboration_invitations WHERE id = $1 FOR UPDATE', [id]);
  const [row] = await q.query<InvitationRow>(`${SELECT_INVITATION} WHERE i.org_id = $1 AND i.id = $2`, [orgId, id]);
  return row;
}

/** Every invitation of a collaboration, newest first (the host's side). */
export async function collaborationInvitations(q: Queryable, collaborationId: string): Promise<InvitationRow[]> {
  return q.query<InvitationRow>(`${SELECT_INVITATION} WHERE i.collaboration_id = $1 ORDER BY i.created DESC, i.id`, [collaborationId]);
}

/**
 * Organizations the host may invite, by name (case-insensitive, anywhere in it), the host itself
 * left out; ordered by name so the same query lists them the same way.
 */
export async function participantCandidates(q: Queryable, hostOrgId: string, text: string, limit: number) {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return q.query<{ id: string; name: string; description: string }>(
    `SELECT id, name, coalesce(description, '') AS description FROM organizations
      WHERE id <> $1 AND name ILIKE $2 ORDER BY lower(name), id LIMIT $3`,
    [hostOrgId, like, limit],
  );
}

/** One of the collaboration's invitations (the host's side), locked: refresh and invalidate change it. */
export async function lockCollaborationInvitation(q: Queryable, collaborationId: string, invitationId: string): Promise<InvitationRow | undefined> {
  await q.query('SELECT 1 FROM collaboration_invitations WHERE id = $1 AND collaboration_id = $2 FOR UPDATE', [invitationId, collaborationId]);
  const [row] = await q.query<InvitationRow>(`${SELECT_INVITATION} WHERE i.collaboration_id = $1 AND i.id = $2`, [collaborationId, invitationId]);
  return row;
}

/** When the invitation expires (a refresh). */
export async function setInvitationExpiry(q: Queryable, invitationId: string, expires: number, now: number): Promise<void> {
  await q.query('UPDATE collaboration_invitations SET expires = $2, modified = $3 WHERE id = $1', [invitationId, expires, now]);
}

/** The invitation can no longer be accepted; a guest only invited reads as removed (the host may invite it again). */
export async function markInvitationInvalidated(q: Queryable, collaborationId: string, invitationId: string, guestOrgId: string, now: number): Promise<void> {
  await q.query(`UPDATE collaboration_invitations SET state = 'invalidated', modified = $2 WHERE id = $1`, [invitationId, now]);
  await q.query(`UPDATE collaboration_participants SET status = 'removed', modified = $3 WHERE collaboration_id = $1 AND org_id = $2 AND status = 'invited'`, [
    collaborationId,
    guestOrgId,
    now,
  ]);
}

/** A new collaboration, hosted by `hostOrgId`; a second one of the same name fails (23505). */
export async function insertCollaboration(
  q: Queryable,
  id: string,
  hostOrgId: string,
  ownerId: string,
  name: string,
  description: string,
  now: number,
): Promise<void> {
  await q.query('INSERT INTO collaborations (id, host_org_id, owner_id, name, description, created, modified) VALUES ($1, $2, $3, $4, $5, $6, $6)', [
    id,
    hostOrgId,
    ownerId,
    name,
    description,
    now,
  ]);
}

/** The host's own participant row, active from the start, its creator the contact. */
export async function insertHostParticipant(q: Queryable, collaborationId: string, hostOrgId: string, contactUserId: string, now: number): Promise<void> {
  await q.query(
    `INSERT INTO collaboration_participants (collaboration_id, org_id, role, status, contact_user_id, created, modified) VALUES ($1, $2, 'host', 'active', $3, $4, $4)`,
    [collaborationId, hostOrgId, contactUserId, now],
  );
}

/** The collaboration changed (a workspace added, a participant gone). */
export async function touchCollaboration(q: Queryable, collaborationId: string, now: number): Promise<void> {
  await q.query('UPDATE collaborations SET modified = $2 WHERE id = $1', [collaborationId, now]);
}

/** A new workspace; a second one of the same name in the collaboration fails (23505). */
export async function insertWorkspace(
  q: Queryable,
  id: string,
  collaborationId: string,
  name: string,
  description: string,
  config: WorkspaceConfig,
  now: number,
): Promise<void> {
  await q.query(
    'INSERT INTO collaboration_workspaces (id, collaboration_id, name, description, config, created, modified) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6)',
    [id, collaborationId, name, description, JSON.stringify(config), now],
  );
}

/** The host's link to its new workspace (exchanging, by the column defaults). */
export async function insertWorkspaceLink(q: Queryable, workspaceId: string, orgId: string, access: WorkspaceAccess, groupId: string | null): Promise<void> {
  await q.query('INSERT INTO collaboration_workspace_links (workspace_id, org_id, access, group_id) VALUES ($1, $2, $3, $4)', [
    workspaceId,
    orgId,
    access,
    groupId,
  ]);
}

/** The ids of the collaboration's workspaces. */
export async function workspaceIdsOf(q: Queryable, collaborationId: string): Promise<string[]> {
  return (await q.query<{ id: string }>('SELECT id FROM collaboration_workspaces WHERE collaboration_id = $1', [collaborationId])).map((w) => w.id);
}

/** A new pending invitation of `guestOrgId` to the collaboration's `workspaces`. */
export async function insertInvitation(
  q: Queryable,
  id: string,
  collaborationId: string,
  guestOrgId: string,
  workspaces: Record<string, WorkspaceAccess>,
  createdBy: string,
  now: number,
  expires: number,
): Promise<void> {
  await q.query(
    'INSERT INTO collaboration_invitations (id, collaboration_id, org_id, workspaces, created_by, created, modified, expires) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6, $7)',
    [id, collaborationId, guestOrgId, JSON.stringify(workspaces), createdBy, now, expires],
  );
}

/** The guest reads as invited: a new participant row, or its earlier one (declined, removed, left) again. */
export async function markParticipantInvited(q: Queryable, collaborationId: string, guestOrgId: string, now: number): Promise<void> {
  await q.query(
    `INSERT INTO collaboration_participants (collaboration_id, org_id, role, status, created, modified) VALUES ($1, $2, 'guest', 'invited', $3, $3)
       ON CONFLICT (collaboration_id, org_id) DO UPDATE SET status = 'invited', modified = $3`,
    [collaborationId, guestOrgId, now],
  );
}

/** The guest's link to a workspace, exchanging again (a link stopped earlier is taken up anew). */
export async function linkGuestWorkspace(q: Queryable, workspaceId: string, orgId: string, access: WorkspaceAccess, groupId: string | null): Promise<void> {
  await q.query(
    `INSERT INTO collaboration_workspace_links (workspace_id, org_id, access, group_id, exchanging, stopped) VALUES ($1, $2, $3, $4, true, NULL)
       ON CONFLICT (workspace_id, org_id) DO UPDATE SET access = $3, group_id = $4, exchanging = true, stopped = NULL`,
    [workspaceId, orgId, access, groupId],
  );
}

export async function markInvitationAccepted(q: Queryable, invitationId: string, now: number): Promise<void> {
  await q.query(`UPDATE collaboration_invitations SET state = 'accepted', modified = $2 WHERE id = $1`, [invitationId, now]);
}

export async function markInvitationDeclined(q: Queryable, invitationId: string, now: number): Promise<void> {
  await q.query(`UPDATE collaboration_invitations SET state = 'declined', modified = $2 WHERE id = $1`, [invitationId, now]);
}

/** The guest takes part, `contactUserId` (who accepted) its contact. */
export async function activateParticipant(q: Queryable, collaborationId: string, orgId: string, contactUserId: string, now: number): Promise<void> {
  await q.query(`UPDATE collaboration_participants SET status = 'active', contact_user_id = $3, modified = $4 WHERE collaboration_id = $1 AND org_id = $2`, [
    collaborationId,
    orgId,
    contactUserId,
    now,
  ]);
}
