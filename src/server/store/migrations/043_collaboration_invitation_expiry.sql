-- Invitations expire (issue 39): `expires` is when the guest can no longer answer (epoch ms), set
-- from inviteParticipant's `expiration` (hours) and pushed 72 hours past the moment of a refresh.
-- NULL: an invitation made before expiry was stored, which keeps never expiring. An expired
-- invitation stays `pending` in the table (a refresh revives it); `invalidated` is the host's
-- `invalidate`, final.
ALTER TABLE collaboration_invitations ADD COLUMN expires bigint;
ALTER TABLE collaboration_invitations DROP CONSTRAINT collaboration_invitations_state_check;
ALTER TABLE collaboration_invitations
  ADD CONSTRAINT collaboration_invitations_state_check CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled', 'invalidated'));
