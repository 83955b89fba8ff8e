-- OAuth 2.0 (authorization code + PKCE): registered apps, the sign-in page's pending forms,
-- authorization codes and refresh tokens. Every secret is stored as its SHA-256 only.

-- A registered app belongs to its item: deleting the item unregisters the app (and, through the
-- cascades below, ends every code, refresh token and access token issued for it).
CREATE TABLE oauth_apps (
  client_id          text PRIMARY KEY,
  item_id            text NOT NULL UNIQUE REFERENCES items (id) ON DELETE CASCADE,
  org_id             text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  client_secret_hash text NOT NULL,
  app_type           text NOT NULL CHECK (app_type IN ('browser', 'native', 'server', 'multiple')),
  redirect_uris      jsonb NOT NULL DEFAULT '[]'::jsonb,
  http_referrers     jsonb NOT NULL DEFAULT '[]'::jsonb,
  privileges         jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- The console's own registration (demo data): at most one.
  console            boolean NOT NULL DEFAULT false,
  registered         bigint NOT NULL,
  modified           bigint NOT NULL
);
CREATE UNIQUE INDEX oauth_apps_console ON oauth_apps (console) WHERE console;

-- A sign-in form shown by oauth2/authorize: the OAuth parameters it carries, bound to the
-- browser that asked for it (hash of a cookie value) so that a form cannot be posted from elsewhere.
CREATE TABLE oauth_sign_in_forms (
  nonce_hash            text PRIMARY KEY,
  binding_hash          text NOT NULL,
  client_id             text NOT NULL REFERENCES oauth_apps (client_id) ON DELETE CASCADE,
  redirect_uri          text NOT NULL,
  state                 text,
  code_challenge        text NOT NULL,
  code_challenge_method text NOT NULL CHECK (code_challenge_method IN ('S256', 'plain')),
  expiration            integer,
  created               bigint NOT NULL,
  expires               bigint NOT NULL
);
CREATE INDEX oauth_sign_in_forms_expires ON oauth_sign_in_forms (expires);

-- Authorization codes: single use (consumed by DELETE … RETURNING), bound to client, redirect URI
-- and PKCE challenge.
CREATE TABLE oauth_codes (
  code_hash             text PRIMARY KEY,
  client_id             text NOT NULL REFERENCES oauth_apps (client_id) ON DELETE CASCADE,
  user_id               text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redirect_uri          text NOT NULL,
  code_challenge        text NOT NULL,
  code_challenge_method text NOT NULL,
  expiration            integer,
  created               bigint NOT NULL,
  expires               bigint NOT NULL
);
CREATE INDEX oauth_codes_expires ON oauth_codes (expires);

CREATE TABLE oauth_refresh_tokens (
  token_hash   text PRIMARY KEY,
  client_id    text NOT NULL REFERENCES oauth_apps (client_id) ON DELETE CASCADE,
  user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  created      bigint NOT NULL,
  expires      bigint NOT NULL
);
CREATE INDEX oauth_refresh_tokens_user ON oauth_refresh_tokens (user_id);
CREATE INDEX oauth_refresh_tokens_expires ON oauth_refresh_tokens (expires);

-- Access tokens issued to an app: which app, and which refresh token they came from (revoking
-- the refresh token or unregistering the app ends them).
ALTER TABLE tokens ADD COLUMN client_id text REFERENCES oauth_apps (client_id) ON DELETE CASCADE;
ALTER TABLE tokens ADD COLUMN refresh_hash text REFERENCES oauth_refresh_tokens (token_hash) ON DELETE CASCADE;
CREATE INDEX tokens_client ON tokens (client_id) WHERE client_id IS NOT NULL;
CREATE INDEX tokens_refresh ON tokens (refresh_hash) WHERE refresh_hash IS NOT NULL;
