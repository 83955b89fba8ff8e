-- Organization webhooks (spec §2, §4.3, §6; facts §3.3, §6). Deliveries come only from the
-- events outbox: a fan-out step turns new outbox rows into webhook_deliveries rows, advancing
-- webhook_cursor in the same transaction; deliveries are claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE webhooks (
  id           text PRIMARY KEY,
  org_id       text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name         text NOT NULL,
  payload_url  text NOT NULL,
  secret       text NOT NULL DEFAULT '',
  is_active    boolean NOT NULL DEFAULT true,
  config       jsonb NOT NULL DEFAULT '{}'::jsonb,
  events       text[] NOT NULL,
  owner_id     text NOT NULL,
  -- Final failures before this time do not count toward the deactivation policy (set on activate).
  activated    bigint NOT NULL,
  created      bigint NOT NULL,
  modified     bigint NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (org_id, created);

CREATE TABLE webhook_settings (
  org_id                 text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  notification_attempts  integer NOT NULL,
  timeout_seconds        integer NOT NULL,
  interval_seconds       integer NOT NULL
);

-- How far the fan-out has read the outbox (one row, locked FOR UPDATE while it advances).
CREATE TABLE webhook_cursor (
  name      text PRIMARY KEY,
  last_seq  bigint NOT NULL,
  -- When a gap after last_seq was first seen (a transaction still open, or rolled back).
  gap_since bigint
);
INSERT INTO webhook_cursor (name, last_seq) VALUES ('fanout', 0);

CREATE TABLE webhook_deliveries (
  id            text PRIMARY KEY,
  webhook_id    text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  org_id        text NOT NULL,
  event_id      text NOT NULL,
  event_uri     text NOT NULL,
  event         jsonb NOT NULL,
  state         text NOT NULL CHECK (state IN ('pending', 'running', 'delivered', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  next_at       bigint NOT NULL,
  locked_until  bigint NOT NULL DEFAULT 0,
  created       bigint NOT NULL,
  finished      bigint,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (webhook_id, state, finished);

CREATE TABLE webhook_attempts (
  seq               bigserial PRIMARY KEY,
  delivery_id       text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  webhook_id        text NOT NULL,
  attempt           integer NOT NULL,
  at                bigint NOT NULL,
  request_headers   jsonb NOT NULL,
  request_body      text NOT NULL,
  status            integer,
  error             text,
  response_excerpt  text NOT NULL DEFAULT '',
  duration_ms       integer NOT NULL,
  success           boolean NOT NULL
);
CREATE INDEX webhook_attempts_hook ON webhook_attempts (webhook_id, seq);
