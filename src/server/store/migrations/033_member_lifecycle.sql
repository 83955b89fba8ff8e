-- Member lifecycle (areas/memberLifecycle, jobs/memberLifecycle.ts): an expiration date on a member,
-- and inactivity policies with their runs and the warnings they sent.

-- When the member is disabled (epoch ms), and when the warning for that date went out; a new date
-- clears the warning. Both are cleared when the member is disabled at their expiration.
ALTER TABLE users ADD COLUMN expiration bigint;
ALTER TABLE users ADD COLUMN expiration_warned bigint;
-- The runner's look for what is due (min(expiration)) and the upcoming list read this index only.
CREATE INDEX users_expiration ON users (expiration) WHERE expiration IS NOT NULL;

CREATE TABLE inactivity_policies (
  id                text PRIMARY KEY,
  org_id            text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  title             text NOT NULL,
  warn_after_days   integer NOT NULL,
  act_after_days    integer NOT NULL,
  action            text NOT NULL CHECK (action IN ('disable', 'move')),
  -- `move`: a base role (org_user…) or a custom role id, and a user type.
  role              text,
  user_license_type text,
  active            boolean NOT NULL DEFAULT false,
  -- Claimed by the runner with FOR UPDATE SKIP LOCKED, as the task scheduler claims tasks.
  next_run_at       bigint,
  created           bigint NOT NULL,
  modified          bigint NOT NULL
);
CREATE INDEX inactivity_policies_org ON inactivity_policies (org_id, created);
CREATE INDEX inactivity_policies_due ON inactivity_policies (next_run_at) WHERE active;

-- One row per occurrence (unique on the policy and its due time): a repeated claim collapses.
CREATE TABLE inactivity_policy_runs (
  id           text PRIMARY KEY,
  policy_id    text NOT NULL REFERENCES inactivity_policies (id) ON DELETE CASCADE,
  org_id       text NOT NULL,
  scheduled_at bigint NOT NULL,
  ran_at       bigint NOT NULL,
  warned       jsonb NOT NULL,
  -- [{userId, username, before: {disabled, role, roleId, userLicenseTypeId}}]: what undo restores.
  acted        jsonb NOT NULL,
  undone       bigint,
  undone_by    text,
  UNIQUE (policy_id, scheduled_at)
);

-- The warning a policy sent a member; sent again only after they signed in and went quiet again.
CREATE TABLE inactivity_warnings (
  policy_id text NOT NULL REFERENCES inactivity_policies (id) ON DELETE CASCADE,
  user_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  warned_at bigint NOT NULL,
  PRIMARY KEY (policy_id, user_id)
);
