-- Undo of a whole member job (areas/memberJobs undo.ts): each member's row keeps what puts them
-- back (`undo`: the inverse action's parameters and the state the job left them in), and an undo
-- job carries those per member (`params`). removeFromGroups is only ever the undo of addToGroups.

ALTER TABLE member_jobs DROP CONSTRAINT member_jobs_action_check;
ALTER TABLE member_jobs ADD CONSTRAINT member_jobs_action_check
  CHECK (action IN ('disable', 'enable', 'role', 'userType', 'delete', 'addToGroups', 'removeFromGroups'));
-- The job this one undoes, and the undo job of this one (a job is undone once).
ALTER TABLE member_jobs ADD COLUMN undoes text;
ALTER TABLE member_jobs ADD COLUMN undone_by text;

ALTER TABLE member_job_members ADD COLUMN undo jsonb;
ALTER TABLE member_job_members ADD COLUMN params jsonb;
