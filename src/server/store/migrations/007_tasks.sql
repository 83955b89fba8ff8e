-- Scheduled tasks (spec §2 Task, §3, §4.2; facts §3.2, §7; perf notes §5). The scheduler keeps
-- each active task's next due time in next_run_at and claims due tasks with FOR UPDATE SKIP LOCKED;
-- a run's id is derived from its task and scheduled time, and (task_id, scheduled_at) is unique, so
-- one occurrence can never run twice, whichever process claims it.
CREATE TABLE tasks (
  id                    text PRIMARY KEY,
  org_id                text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id              text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type                  text NOT NULL,
  title                 text NOT NULL DEFAULT '',
  task_url              text,
  item_id               text,
  parameters            jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The administrator token a geoprocessing task was created with (sent to the service; never shown).
  run_token             text,
  minute                text NOT NULL,
  hour                  text NOT NULL,
  day_of_month          text NOT NULL,
  month                 text NOT NULL,
  day_of_week           text NOT NULL,
  start_date            bigint,
  end_date              bigint,
  max_occurrences       integer,
  active                boolean NOT NULL DEFAULT true,
  -- active | paused | completed | failed (disabled after consecutive failures)
  state                 text NOT NULL DEFAULT 'active',
  -- Why the task stopped (disabled by its owner, the item was reassigned, five failures, …).
  state_reason          text,
  next_run_at           bigint,
  last_start            bigint,
  last_status           text,
  last_result           text,
  run_count             integer NOT NULL DEFAULT 0,
  consecutive_failures  integer NOT NULL DEFAULT 0,
  created               bigint NOT NULL,
  modified              bigint NOT NULL
);
CREATE INDEX tasks_owner ON tasks (owner_id, created);
CREATE INDEX tasks_org ON tasks (org_id, created);
CREATE INDEX tasks_item ON tasks (item_id);
CREATE INDEX tasks_due ON tasks (next_run_at) WHERE active;

CREATE TABLE task_runs (
  id            text PRIMARY KEY,
  task_id       text NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  org_id        text NOT NULL,
  scheduled_at  bigint NOT NULL,
  -- scheduled | executing | succeeded | failed | skipped (facts §7.2)
  status        text NOT NULL CHECK (status IN ('scheduled', 'executing', 'succeeded', 'failed', 'skipped')),
  result        text NOT NULL DEFAULT '',
  attempts      integer NOT NULL DEFAULT 0,
  -- While executing: after this time another scheduler may take the run over (its process died).
  locked_until  bigint NOT NULL DEFAULT 0,
  started       bigint,
  finished      bigint,
  created       bigint NOT NULL,
  modified      bigint NOT NULL,
  UNIQUE (task_id, scheduled_at)
);
CREATE INDEX task_runs_task ON task_runs (task_id, scheduled_at);
CREATE INDEX task_runs_executing ON task_runs (status, locked_until);
