-- Member profile fields that Update User (community/users/<u>/update) sets, as the user record
-- shows them (facts §2.3): tags, access, culture, region, units and the preferred content view.
ALTER TABLE users ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
ALTER TABLE users ADD COLUMN access text NOT NULL DEFAULT 'org' CHECK (access IN ('private', 'org', 'public'));
ALTER TABLE users ADD COLUMN culture text;
ALTER TABLE users ADD COLUMN region text;
ALTER TABLE users ADD COLUMN units text NOT NULL DEFAULT 'metric' CHECK (units IN ('english', 'metric'));
ALTER TABLE users ADD COLUMN preferred_view text;

-- Member search filters and sorts (portals/<orgId>/users, community/users, portals/self/users/search)
-- within one organization: each filtered or sorted column leads an index after org_id, ending with
-- the sort's tie-break (lower(username)), so a first page reads a range of one index in order
-- instead of sorting every member of a 100,000-member organization. (username has users_org_username.)
CREATE INDEX users_org_last_login ON users (org_id, last_login, lower(username));
CREATE INDEX users_org_created_name ON users (org_id, created, lower(username));
CREATE INDEX users_org_full_name ON users (org_id, lower(full_name), lower(username));
CREATE INDEX users_org_license_type ON users (org_id, user_license_type_id, lower(username));
CREATE INDEX users_org_disabled ON users (org_id, disabled, last_login, lower(username));
