-- A dependents step answers each dependent's node row as JSON written with its folded reference row
-- (issue 35 item 9). Migration 044's step read the holder's columns from each folded row, then
-- built one JSON array per column (eighteen), after materializing the rows twice (read, then
-- taken): on the embedded database that building, not the reading, was most of a step (a hot
-- layer's first step of ~300 rows: about 1.4 ms to read them, 5.5 ms in all, quiet machine).
--
-- The holder's node row is now a stored generated column of the folded row (holder_node: the JSON
-- array [id, organization, owner, title, type, url, access, content status, status, created,
-- modified, group ids, dependent count]), computed by the database whenever the row is written:
-- the triggers of migration 044 that keep the holder's columns keep it too. A step concatenates
-- the holder_node of the rows it takes (one text), beside six JSON arrays for the edge's own
-- columns (from, to, kind, count, example, relationship type), in one pass over the rows as read, with the
-- same bound and cut as migration 044's (the running sum of counts, the index's order).
-- json_build_array of text, integers and a text array does not depend on any setting: the
-- wrapper may be IMMUTABLE, as a generated column requires.
--
-- The dependent count is always in the node row: reading it costs nothing more now, so the step
-- takes no p_leaves (the walk ignores the counts of a direct answer, which takes no further step).
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION dependency_holder_node(p_id text, p_org text, p_owner text, p_title text, p_type text, p_url text, p_access text, p_content_status text, p_status text, p_created bigint, p_modified bigint, p_group_ids text[], p_dependents integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT json_build_array(p_id, p_org, p_owner, p_title, p_type, p_url, p_access, p_content_status, p_status, p_created, p_modified, p_group_ids, p_dependents)::text $$;

ALTER TABLE item_reference_edges ADD COLUMN holder_node text GENERATED ALWAYS AS (dependency_holder_node(item_id, org_id, holder_owner_id, holder_title, holder_type, holder_url, holder_access, holder_content_status, holder_status, holder_created, holder_modified, holder_group_ids, holder_dependents)) STORED;

DROP FUNCTION dependency_walk_start(text, text, text, boolean, text, integer, boolean);

DROP FUNCTION dependency_step_into(text[], integer, text, text[], boolean);

-- step_edges: JSON arrays of from, to, kind, count, example and relationship type, by column; step_holders:
-- the rows' holder nodes joined by commas (a JSON array's elements); step_nodes: the owners' ids
-- and usernames (once per distinct owner). No row taken: step_holders null.
CREATE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[])
  RETURNS TABLE (step_edges json, step_holders text, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  SELECT t.edges, t.holders,
         (SELECT json_build_array(array_agg(o.id), array_agg(o.username)) FROM users o WHERE o.id = ANY(t.owners) HAVING count(*) > 0)
    FROM (SELECT json_build_array(array_agg(b.from_id), array_agg(b.to_id), array_agg(b.kind), array_agg(b.n), array_agg(b.example), array_agg(b.relationship_type)) AS edges,
                 string_agg(b.holder_node, ',') AS holders, array_agg(DISTINCT b.holder_owner_id) AS owners
            FROM (SELECT u.*, sum(u.n) OVER (ROWS UNBOUNDED PRECEDING) - u.n AS before
                    FROM (SELECT * FROM (
                            SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.n, r.example, NULL::text AS relationship_type, r.holder_owner_id, r.holder_node
                              FROM item_reference_edges r
                             WHERE r.target_item = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR r.org_id = p_org)
                            UNION ALL
                            SELECT r.item_id, s.item_id, r.kind, r.n, r.example, NULL, r.holder_owner_id, r.holder_node
                              FROM unnest(p_with_url) AS f (id)
                              CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                                                   WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
                              JOIN item_reference_edges r ON r.org_id = s.org_id AND r.target_url = s.service_key
                            UNION ALL
                            SELECT l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type, o.owner_id,
                                   dependency_holder_node(o.id, o.org_id, o.owner_id, o.title, o.type, o.url, o.access, o.content_status, o.status, o.created, o.modified,
                                                          ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = o.id),
                                                          (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = o.id))
                              FROM relationships l JOIN items o ON o.id = l.origin_id
                             WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
                          ) u0 WHERE u0.from_id <> u0.to_id LIMIT p_max_rows + 1) u) b
           WHERE b.before < p_max_rows + 1) t; RETURN; END $$;

-- Migration 045's start of a walk, with the step's new column (null for what items use).
CREATE FUNCTION dependency_walk_start(p_id text, p_user text, p_org text, p_view_all boolean, p_direction text, p_max_rows integer)
  RETURNS TABLE (id text, org_id text, owner_id text, owner_username text, title text, type text, url text, access text, content_status text, status text,
                 created bigint, modified bigint, group_ids text[], caller_groups text[], step_edges json, step_holders text, step_nodes json, stepped boolean)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN RETURN QUERY
  SELECT n.id, n.org_id, n.owner_id, n.owner_username, n.title, n.type, n.url, n.access, n.content_status, n.status, n.created, n.modified, n.group_ids,
         g.ids, s.step_edges, s.step_holders, s.step_nodes, s.stepped
    FROM (SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status, i.created, i.modified,
                 ARRAY(SELECT sh.group_id FROM item_shares sh WHERE sh.item_id = i.id) AS group_ids
            FROM items i JOIN users o ON o.id = i.owner_id WHERE i.id = p_id) n
    CROSS JOIN (SELECT ARRAY(SELECT m.group_id FROM group_members m WHERE m.user_id = p_user) AS ids) g
    LEFT JOIN LATERAL (
      SELECT x.step_edges, x.step_holders, x.step_nodes, true AS stepped
        FROM dependency_step_into(ARRAY[n.id], p_max_rows, n.org_id, CASE WHEN n.url IS NOT NULL THEN ARRAY[n.id] ELSE '{}'::text[] END) x
       WHERE p_direction = 'usedBy'
      UNION ALL
      SELECT x.step_edges, NULL::text, x.step_nodes, true FROM dependency_step_out_of(ARRAY[n.id], p_max_rows, ARRAY[n.id]) x WHERE p_direction = 'uses'
    ) s ON (n.access = 'public' OR (p_user IS NOT NULL AND (n.owner_id = p_user OR (n.org_id = p_org AND (n.access = 'org' OR p_view_all))
            OR n.group_ids && g.ids))) AND (n.status <> 'partial' OR n.owner_id IS NOT DISTINCT FROM p_user); RETURN; END $$;
