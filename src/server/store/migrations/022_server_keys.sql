-- Secret keys the portal's instances share (they share nothing but this database). Each is made
-- once, by whichever instance first needs it (INSERT … ON CONFLICT DO NOTHING), and read by all.
-- `oauth-sign-in-form` signs the sign-in forms of oauth2/authorize (areas/oauth/formSeal.ts).
CREATE TABLE server_keys (
  name    text PRIMARY KEY,
  key     text NOT NULL,
  created bigint NOT NULL
);
