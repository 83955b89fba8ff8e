-- Organization history (portals/<orgId>/history, docs/history.md) reads the events outbox.
--
-- 1. The outbox also records what is not a webhook event: organization settings and new-member
--    defaults, webhooks, scheduled tasks, collaborations, sign-ins, item relationships. The webhook fan-out delivers
--    only the catalogue's sources (item, group, user, role).
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_source_check;
ALTER TABLE events ADD CONSTRAINT events_source_check
  CHECK (source IN ('item', 'group', 'user', 'role', 'organization', 'webhook', 'task', 'collaboration', 'session', 'relationship'));

-- 2. History's view of each event, written by the same insert (src/server/store/events.ts):
--    the target type code, the documented action, the service operation, the target's owner and
--    title at the time, and what changed (before/after). `properties` stays the webhook payload.
ALTER TABLE events ADD COLUMN id_type text;
ALTER TABLE events ADD COLUMN action text;
ALTER TABLE events ADD COLUMN op text;
ALTER TABLE events ADD COLUMN owner text;
ALTER TABLE events ADD COLUMN title text;
ALTER TABLE events ADD COLUMN data jsonb;

-- Events written before this migration: their type and action from source and operation.
UPDATE events SET
  id_type = CASE source WHEN 'item' THEN 'i' WHEN 'group' THEN 'g' WHEN 'user' THEN 'u' WHEN 'role' THEN 'r' ELSE 'a' END,
  action = CASE
    WHEN operation IN ('add') AND source = 'item' THEN 'add'
    WHEN operation IN ('add') THEN 'create'
    WHEN operation IN ('delete', 'share', 'unshare') THEN operation
    WHEN operation = 'addUsers' THEN 'addusers'
    WHEN operation = 'removeUsers' THEN 'removeusers'
    WHEN operation = 'updateUsers' THEN 'updateUsers'
    ELSE 'update' END,
  op = operation,
  data = properties
WHERE id_type IS NULL;

-- 3. Filtered paging, newest or oldest first, position (created, seq): by target, by actor, by
--    type, and the whole organization by date.
CREATE INDEX events_history_created ON events (org_id, created, seq);
CREATE INDEX events_history_target ON events (org_id, subject_id, created, seq);
CREATE INDEX events_history_actor ON events (org_id, username, created, seq);
CREATE INDEX events_history_type ON events (org_id, id_type, created, seq);
