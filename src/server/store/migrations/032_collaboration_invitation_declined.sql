-- A guest's administrators may decline an invitation (issue 39): the invitation keeps its row as
-- `declined` and the guest's participant row says so, so the host sees the answer and may invite
-- the organization again.
ALTER TABLE collaboration_invitations DROP CONSTRAINT collaboration_invitations_state_check;
ALTER TABLE collaboration_invitations
  ADD CONSTRAINT collaboration_invitations_state_check CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled'));
ALTER TABLE collaboration_participants DROP CONSTRAINT collaboration_participants_status_check;
ALTER TABLE collaboration_participants
  ADD CONSTRAINT collaboration_participants_status_check CHECK (status IN ('invited', 'active', 'removed', 'left', 'declined'));
CREATE INDEX collaboration_invitations_collaboration ON collaboration_invitations (collaboration_id, org_id, created);
