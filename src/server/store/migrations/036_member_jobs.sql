-- Bulk member jobs (areas/memberJobs, jobs/memberJobs.ts): a bulk action on members run by the
-- service, one row per member so that each member is acted on exactly once across restarts.

CREATE TABLE member_jobs (
  id            text PRIMARY KEY,
  org_id        text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The member who started it: the job acts with their privileges as they are when it runs.
  created_by    text NOT NULL,
  created_by_username text NOT NULL,
  action        text NOT NULL CHECK (action IN ('disable', 'enable', 'role', 'userType', 'delete', 'addToGroups')),
  -- {newRole} | {newUserLicenseType} | {groupIds}
  params        jsonb NOT NULL DEFAULT '{}',
  state         text NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'done')),
  total         integer NOT NULL,
  succeeded     integer NOT NULL DEFAULT 0,
  failed        integer NOT NULL DEFAULT 0,
  -- A runner's lease on the job (epoch ms); a job whose runner died is claimed again once it runs out.
  locked_until  bigint NOT NULL DEFAULT 0,
  created       bigint NOT NULL,
  modified      bigint NOT NULL,
  finished      bigint
);
CREATE INDEX member_jobs_org ON member_jobs (org_id, created DESC);
CREATE INDEX member_jobs_due ON member_jobs (locked_until) WHERE state = 'running';

-- state: pending until acted on, then succeeded | failed (with the reason) | cancelled. The action
-- and the change of state commit in one transaction: a crash leaves the member pending, never both.
CREATE TABLE member_job_members (
  job_id    text NOT NULL REFERENCES member_jobs (id) ON DELETE CASCADE,
  seq       integer NOT NULL,
  username  text NOT NULL,
  state     text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed', 'cancelled')),
  reason    text,
  done_at   bigint,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX member_job_members_pending ON member_job_members (job_id, seq) WHERE state = 'pending';
