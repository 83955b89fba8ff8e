-- Content: folders, items, their data, sharing, relationships, upload parts and background jobs.

CREATE TABLE folders (
  id       text PRIMARY KEY,
  org_id   text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title    text NOT NULL,
  created  bigint NOT NULL
);
CREATE UNIQUE INDEX folders_owner_title ON folders (owner_id, lower(title));

CREATE TABLE items (
  id                  text PRIMARY KEY,
  org_id              text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id            text NOT NULL REFERENCES users (id),
  folder_id           text REFERENCES folders (id),
  title               text NOT NULL DEFAULT '',
  type                text NOT NULL DEFAULT '',
  name                text,
  type_keywords       text[] NOT NULL DEFAULT '{}',
  description         text,
  tags                text[] NOT NULL DEFAULT '{}',
  snippet             text,
  thumbnail           text,
  documentation       text,
  extent              jsonb NOT NULL DEFAULT '[]'::jsonb,
  spatial_reference   text,
  access_information  text,
  license_info        text,
  culture             text,
  properties          jsonb,
  url                 text,
  categories          text[] NOT NULL DEFAULT '{}',
  app_categories      text[] NOT NULL DEFAULT '{}',
  industries          text[] NOT NULL DEFAULT '{}',
  languages           text[] NOT NULL DEFAULT '{}',
  large_thumbnail     text,
  banner              text,
  screenshots         text[] NOT NULL DEFAULT '{}',
  listing             jsonb,
  -- private | org | public; group shares are rows of item_shares ("shared" on the wire when private with groups).
  access              text NOT NULL DEFAULT 'private' CHECK (access IN ('private', 'org', 'public')),
  content_status      text CHECK (content_status IN ('org_authoritative', 'public_authoritative', 'deprecated')),
  protected           boolean NOT NULL DEFAULT false,
  -- Upload and background-job state: partial (multipart upload open), processing, completed, failed.
  status              text NOT NULL DEFAULT 'completed' CHECK (status IN ('partial', 'processing', 'completed', 'failed')),
  status_message      text,
  -- The item's data: none, text (in data_text) or a file (blob key in data_blob).
  data_kind           text NOT NULL DEFAULT 'none' CHECK (data_kind IN ('none', 'text', 'file')),
  data_text           text,
  data_blob           text,
  data_mime           text,
  size                bigint NOT NULL DEFAULT 0,
  -- Secured-service credentials: stored, never returned in item JSON.
  service_credentials jsonb,
  -- Service proxy: {hitsPerInterval, intervalSeconds, referrers}.
  service_proxy       jsonb,
  num_views           bigint NOT NULL DEFAULT 0,
  created             bigint NOT NULL,
  modified            bigint NOT NULL
);
CREATE INDEX items_owner_folder ON items (owner_id, folder_id, created);
CREATE INDEX items_org_modified ON items (org_id, modified);
CREATE INDEX items_org_title ON items (org_id, lower(title));
CREATE INDEX items_type ON items (org_id, type);

CREATE TABLE item_shares (
  item_id  text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  group_id text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  shared   bigint NOT NULL,
  PRIMARY KEY (item_id, group_id)
);
CREATE INDEX item_shares_group ON item_shares (group_id);

-- Files extracted from an uploaded package's esriinfo folder, served at content/items/<id>/info/<path>.
CREATE TABLE item_info_files (
  item_id  text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  path     text NOT NULL,
  blob_key text NOT NULL,
  size     bigint NOT NULL,
  PRIMARY KEY (item_id, path)
);

-- Parts of an open multipart upload; a re-sent part number replaces the row.
CREATE TABLE item_parts (
  item_id  text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  part_num integer NOT NULL CHECK (part_num BETWEEN 1 AND 10000),
  blob_key text NOT NULL,
  size     bigint NOT NULL,
  PRIMARY KEY (item_id, part_num)
);

CREATE TABLE relationships (
  id             bigserial PRIMARY KEY,
  org_id         text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type           text NOT NULL,
  origin_id      text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  destination_id text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  created_by     text NOT NULL REFERENCES users (id),
  created        bigint NOT NULL
);
CREATE UNIQUE INDEX relationships_unique ON relationships (type, origin_id, destination_id);
CREATE INDEX relationships_destination ON relationships (destination_id);

-- Background work on items (async dataUrl downloads): rows claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE item_jobs (
  id           text PRIMARY KEY,
  item_id      text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  kind         text NOT NULL,
  state        text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  payload      jsonb NOT NULL DEFAULT '{}'::jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  locked_until bigint NOT NULL DEFAULT 0,
  message      text,
  created      bigint NOT NULL,
  updated      bigint NOT NULL
);
CREATE INDEX item_jobs_due ON item_jobs (state, locked_until);

-- Service-proxy rate limiting: hits per item per interval window, shared by every process.
CREATE TABLE proxy_hits (
  item_id      text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  window_start bigint NOT NULL,
  hits         integer NOT NULL,
  PRIMARY KEY (item_id, window_start)
);
