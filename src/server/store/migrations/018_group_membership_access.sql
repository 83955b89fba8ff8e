-- Who may join a group (community/createGroup and community/groups/<id>/update, `membershipAccess`):
--   'org'            only members of the group's organization
--   'collaboration'  members of the group's organization and of organizations it is in a partnered
--                    collaboration with
--   'none'           anyone (the parameter sent empty or as `none`)
-- Refused names go to addUsers' notAdded with the reason; join is refused (src/server/areas/groups/service.ts).
ALTER TABLE groups ADD COLUMN membership_access text NOT NULL DEFAULT 'none'
  CHECK (membership_access IN ('none', 'org', 'collaboration'));
