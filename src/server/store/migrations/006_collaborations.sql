-- Distributed collaborations between organizations of this service (facts §3.10): a host, guests
-- invited by the host, workspaces, and which participant exchanges content through which
-- workspace (with which of its groups). A participant portal id is the organization id.

CREATE TABLE collaborations (
  id          text PRIMARY KEY,
  host_org_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id    text NOT NULL REFERENCES users (id),
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  created     bigint NOT NULL,
  modified    bigint NOT NULL
);
CREATE UNIQUE INDEX collaborations_host_name ON collaborations (host_org_id, lower(name));

-- One row per organization taking part (the host included). A removed or departed guest keeps
-- its row with its status, so the history stays readable.
CREATE TABLE collaboration_participants (
  collaboration_id text NOT NULL REFERENCES collaborations (id) ON DELETE CASCADE,
  org_id           text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ('host', 'guest')),
  status           text NOT NULL CHECK (status IN ('invited', 'active', 'removed', 'left')),
  contact_user_id  text REFERENCES users (id) ON DELETE SET NULL,
  created          bigint NOT NULL,
  modified         bigint NOT NULL,
  PRIMARY KEY (collaboration_id, org_id)
);
CREATE INDEX collaboration_participants_org ON collaboration_participants (org_id, status);
CREATE UNIQUE INDEX collaboration_one_host ON collaboration_participants (collaboration_id) WHERE role = 'host';

CREATE TABLE collaboration_workspaces (
  id               text PRIMARY KEY,
  collaboration_id text NOT NULL REFERENCES collaborations (id) ON DELETE CASCADE,
  name             text NOT NULL,
  description      text NOT NULL DEFAULT '',
  config           jsonb NOT NULL DEFAULT '{}'::jsonb,
  created          bigint NOT NULL,
  modified         bigint NOT NULL
);
CREATE UNIQUE INDEX collaboration_workspaces_name ON collaboration_workspaces (collaboration_id, lower(name));

-- A participant's link to a workspace: its access and its group. `exchanging` turns false when
-- the participant is removed or leaves; the link stays, with when it stopped.
CREATE TABLE collaboration_workspace_links (
  workspace_id text NOT NULL REFERENCES collaboration_workspaces (id) ON DELETE CASCADE,
  org_id       text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  access       text NOT NULL CHECK (access IN ('send', 'receive', 'sendAndReceive')),
  group_id     text REFERENCES groups (id) ON DELETE SET NULL,
  exchanging   boolean NOT NULL DEFAULT true,
  stopped      bigint,
  PRIMARY KEY (workspace_id, org_id)
);
CREATE INDEX collaboration_workspace_links_org ON collaboration_workspace_links (org_id);

-- Host → guest invitations; accepting one makes the guest an active participant.
CREATE TABLE collaboration_invitations (
  id               text PRIMARY KEY,
  collaboration_id text NOT NULL REFERENCES collaborations (id) ON DELETE CASCADE,
  org_id           text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- workspace id → the access the guest gets
  workspaces       jsonb NOT NULL DEFAULT '{}'::jsonb,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'cancelled')),
  created_by       text REFERENCES users (id) ON DELETE SET NULL,
  created          bigint NOT NULL,
  modified         bigint NOT NULL
);
CREATE INDEX collaboration_invitations_org ON collaboration_invitations (org_id, state);

-- What happened to a collaboration (created, invited, joined, participant removed, left):
-- written in the same transaction as the change, readable by the participants' administrators.
CREATE TABLE collaboration_events (
  seq              bigserial PRIMARY KEY,
  collaboration_id text NOT NULL REFERENCES collaborations (id) ON DELETE CASCADE,
  operation        text NOT NULL,
  org_id           text NOT NULL,
  user_id          text,
  username         text,
  properties       jsonb NOT NULL DEFAULT '{}'::jsonb,
  created          bigint NOT NULL
);
CREATE INDEX collaboration_events_collaboration ON collaboration_events (collaboration_id, seq);
