-- Multi-organization from the first migration: every row carries its organization.
-- Timestamps are epoch milliseconds (bigint), as the wire reports them.

CREATE TABLE organizations (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  url_key     text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  access      text NOT NULL DEFAULT 'private' CHECK (access IN ('private', 'public')),
  is_verified boolean NOT NULL DEFAULT false,
  settings    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created     bigint NOT NULL,
  modified    bigint NOT NULL
);

-- Custom roles, including the built-in Viewer and Data Editor of every organization.
CREATE TABLE roles (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  privileges  text[] NOT NULL DEFAULT '{}',
  built_in    boolean NOT NULL DEFAULT false,
  created     bigint NOT NULL,
  modified    bigint NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX roles_org_name ON roles (org_id, lower(name));

CREATE TABLE users (
  id                   text PRIMARY KEY,
  org_id               text NOT NULL REFERENCES organizations (id),
  username             text NOT NULL,
  password_hash        text NOT NULL,
  first_name           text NOT NULL DEFAULT '',
  last_name            text NOT NULL DEFAULT '',
  full_name            text NOT NULL DEFAULT '',
  email                text NOT NULL DEFAULT '',
  description          text,
  -- The base role. For a member with a custom role (role_id set) it is derived from the role's
  -- privileges when read; this column then keeps the last base role for reference only.
  role                 text NOT NULL CHECK (role IN ('org_admin', 'org_publisher', 'org_user')),
  role_id              text,
  user_license_type_id text NOT NULL DEFAULT 'creatorUT',
  user_type            text NOT NULL DEFAULT 'arcgisonly',
  disabled             boolean NOT NULL DEFAULT false,
  failed_sign_ins      integer NOT NULL DEFAULT 0,
  locked_until         bigint NOT NULL DEFAULT 0,
  last_login           bigint NOT NULL DEFAULT -1,
  created              bigint NOT NULL,
  modified             bigint NOT NULL,
  -- A role cannot be deleted while members hold it.
  FOREIGN KEY (org_id, role_id) REFERENCES roles (org_id, id)
);
CREATE UNIQUE INDEX users_username ON users (lower(username));
CREATE INDEX users_org_username ON users (org_id, lower(username));
CREATE INDEX users_org_created ON users (org_id, created);
CREATE INDEX users_org_role ON users (org_id, role, role_id);

-- Tokens are stored as SHA-256 hashes; the token itself is only ever in the client's hands.
CREATE TABLE tokens (
  token_hash text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created    bigint NOT NULL,
  expires    bigint NOT NULL,
  client     text,
  referer    text
);
CREATE INDEX tokens_user ON tokens (user_id);
CREATE INDEX tokens_expires ON tokens (expires);

-- The event outbox: every mutating operation inserts its events here in the same transaction
-- as its change; the webhook dispatcher reads from it.
CREATE TABLE events (
  seq        bigserial PRIMARY KEY,
  id         text NOT NULL UNIQUE,
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  uri        text NOT NULL,
  source     text NOT NULL CHECK (source IN ('item', 'group', 'user', 'role')),
  operation  text NOT NULL,
  subject_id text NOT NULL,
  user_id    text,
  username   text,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  created    bigint NOT NULL
);
CREATE INDEX events_org_seq ON events (org_id, seq);
