-- Groups and their members; new-member defaults.

CREATE TABLE groups (
  id                 text PRIMARY KEY,
  org_id             text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id           text NOT NULL REFERENCES users (id),
  title              text NOT NULL,
  description        text NOT NULL DEFAULT '',
  snippet            text NOT NULL DEFAULT '',
  tags               text[] NOT NULL DEFAULT '{}',
  access             text NOT NULL DEFAULT 'private' CHECK (access IN ('private', 'org', 'public')),
  is_invitation_only boolean NOT NULL DEFAULT false,
  is_view_only       boolean NOT NULL DEFAULT false,
  auto_join          boolean NOT NULL DEFAULT false,
  leaving_disallowed boolean NOT NULL DEFAULT false,
  hidden_members     boolean NOT NULL DEFAULT false,
  protected          boolean NOT NULL DEFAULT false,
  sort_field         text NOT NULL DEFAULT 'title',
  sort_order         text NOT NULL DEFAULT 'asc',
  capabilities       text[] NOT NULL DEFAULT '{}',
  created            bigint NOT NULL,
  modified           bigint NOT NULL
);
CREATE UNIQUE INDEX groups_owner_title ON groups (owner_id, lower(title));
CREATE INDEX groups_org_title ON groups (org_id, lower(title));

CREATE TABLE group_members (
  group_id    text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  member_type text NOT NULL CHECK (member_type IN ('owner', 'admin', 'member')),
  joined      bigint NOT NULL,
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_user ON group_members (user_id);

-- One row per organization when defaults are set; no row means no defaults.
CREATE TABLE user_default_settings (
  org_id            text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  role              text,
  user_license_type text,
  groups            text[] NOT NULL DEFAULT '{}',
  user_type         text,
  apps              jsonb NOT NULL DEFAULT '[]'::jsonb,
  app_bundles       jsonb NOT NULL DEFAULT '[]'::jsonb,
  modified          bigint NOT NULL
);
