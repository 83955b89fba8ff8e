-- Fewer index writes per scheduled run (a run's row is written three times: inserted, claimed,
-- ended; its task's row three times: next due time, start, end). task_runs_task repeated the index
-- of UNIQUE (task_id, scheduled_at), so every write of a run went into both. The index the
-- scheduler looks for waiting and leased runs with now holds only those: a run's end no longer
-- adds an entry, and the index stays the size of the work in hand rather than of the history.
-- Tasks' pages keep room for new versions of their rows, so that recording a run's start and end
-- (columns no index holds) is a heap-only update instead of an entry in each of five indexes.
DROP INDEX task_runs_task;
DROP INDEX task_runs_executing;
CREATE INDEX task_runs_waiting ON task_runs (status, locked_until) WHERE status IN ('scheduled', 'executing');
ALTER TABLE tasks SET (fillfactor = 70);
