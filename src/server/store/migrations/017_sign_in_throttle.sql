-- Sign-in throttling (src/server/areas/auth/throttle.ts, docs/security.md "Sign-in throttling").
--
-- Failures are counted per (username as typed, source), per source and per username, in the
-- database so that every instance behind a load balancer reads and updates the same counts. The
-- username is the text tried, whether or not such a member exists: unknown and existing usernames
-- are throttled alike and answer alike. Rows of one kind never share a key with another:
--   (username, source)  failures of one source on one username, and its backoff
--   ('', source)        failures of one source on any username, and its backoff
--   (username, '')      failures on one username from every source (slows, never refuses)
-- Sources are client addresses, IPv6 ones by their /64 prefix.
CREATE TABLE sign_in_throttle (
  username      text    NOT NULL,
  source        text    NOT NULL,
  failures      integer NOT NULL DEFAULT 0,
  last_failure  bigint  NOT NULL DEFAULT 0,
  blocked_until bigint  NOT NULL DEFAULT 0,
  PRIMARY KEY (username, source)
);

-- The retention sweep removes rows whose last failure is past the forgetting time, oldest first.
CREATE INDEX sign_in_throttle_last_failure ON sign_in_throttle (last_failure);

-- The per-account lock these columns held let anyone lock any account with five wrong passwords.
ALTER TABLE users DROP COLUMN failed_sign_ins, DROP COLUMN locked_until;
