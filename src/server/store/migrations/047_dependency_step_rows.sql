-- A dependents step answers each of its rows as JSON written with the folded reference row (issue
-- 35 item 9). Migration 044's step read the holder's columns from each folded row, then built one
-- JSON array per column (eighteen), after materializing the rows twice (read, then taken): on the
-- embedded database that building, not the reading, was most of a step (a hot layer's first step
-- of ~300 rows: about 1.4 ms to read them, 5.5 ms in all, quiet machine).
--
-- Each folded row now holds what a step answers of it as a stored generated column (dependent_row:
-- the JSON array [from, to, kind, count, example, relationship type, then the holder's
-- organization, owner, title, type, url, access, content status, status, created, modified, group
-- ids and dependent count]), computed by the database whenever the row is written: the triggers
-- of migration 044 that keep the holder's columns, and the folding of migrations 039 and 041 that
-- keeps the count and example, keep it too. A step joins the dependent_row of the rows it takes
-- with commas (one text: a JSON array's elements), in one pass over the rows as read, with the same
-- bound and cut as migration 044's (the running sum of counts, the index's order). A row found
-- through a service URL (its `to` is the service item) and a relationship's are built as read.
-- json_build_array of text, integers and a text array depends on no setting: the function may be
-- IMMUTABLE, as a generated column requires.
--
-- The dependent count is always in the row: reading it costs nothing more now, so the step takes
-- no p_leaves (the walk ignores the counts of a direct answer, which takes no further step).
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION dependency_row(p_from text, p_to text, p_kind text, p_n integer, p_example text, p_relationship_type text, p_org text, p_owner text, p_title text, p_type text, p_url text, p_access text, p_content_status text, p_status text, p_created bigint, p_modified bigint, p_group_ids text[], p_dependents integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT json_build_array(p_from, p_to, p_kind, p_n, p_example, p_relationship_type, p_org, p_owner, p_title, p_type, p_url, p_access, p_content_status, p_status, p_created, p_modified, p_group_ids, p_dependents)::text $$;

ALTER TABLE item_reference_edges ADD COLUMN dependent_row text GENERATED ALWAYS AS (dependency_row(item_id, target_item, kind, n, example, NULL, org_id, holder_owner_id, holder_title, holder_type, holder_url, holder_access, holder_content_status, holder_status, holder_created, holder_modified, holder_group_ids, holder_dependents)) STORED;

DROP FUNCTION dependency_walk_start(text, text, text, boolean, text, integer, boolean);

DROP FUNCTION dependency_step_into(text[], integer, text, text[], boolean);

-- The rows a dependents step reads, in the order read, at most p_max_rows + 1 (one more than the
-- bound, so that a step can tell it was cut): the folded reference rows of the ids, the rows found
-- through the ids' service URLs and the relationships to the ids, each with its dependent_row. A
-- set-returning SQL function of one SELECT: the planner inlines it into the step's statements.
CREATE FUNCTION dependency_step_candidates(p_ids text[], p_max_rows integer, p_org text, p_with_url text[])
  RETURNS TABLE (from_id text, n integer, holder_owner_id text, dependent_row text) LANGUAGE sql STABLE AS $$
  SELECT u0.from_id, u0.n, u0.holder_owner_id, u0.dependent_row FROM (
                            SELECT r.item_id AS from_id, r.target_item AS to_id, r.n, r.holder_owner_id, r.dependent_row
                              FROM item_reference_edges r
                             WHERE r.target_item = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR r.org_id = p_org)
                            UNION ALL
                            SELECT r.item_id, s.item_id, r.n, r.holder_owner_id,
                                   dependency_row(r.item_id, s.item_id, r.kind, r.n, r.example, NULL, r.org_id, r.holder_owner_id, r.holder_title, r.holder_type, r.holder_url,
                                                  r.holder_access, r.holder_content_status, r.holder_status, r.holder_created, r.holder_modified, r.holder_group_ids,
                                                  r.holder_dependents)
                              FROM unnest(p_with_url) AS f (id)
                              CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                                                   WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
                              JOIN item_reference_edges r ON r.org_id = s.org_id AND r.target_url = s.service_key
                            UNION ALL
                            SELECT l.origin_id, l.destination_id, 1, o.owner_id,
                                   dependency_row(l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type, o.org_id, o.owner_id, o.title, o.type, o.url, o.access,
                                                  o.content_status, o.status, o.created, o.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = o.id),
                                                  (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = o.id))
                              FROM relationships l JOIN items o ON o.id = l.origin_id
                             WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
                                                    ) u0 WHERE u0.from_id <> u0.to_id LIMIT p_max_rows + 1 $$;

-- step_rows: the rows' dependent_row joined by commas; step_nodes: the owners' ids and usernames
-- (once per distinct owner). No row taken: both null.
-- Most steps take every row they read (their counts sum to no more than the bound): they are read
-- and joined in one pass. Only when the counts read pass the bound is the step read again with the
-- running sum that cuts it (the adversarial ring's steps): the running sum over the rows, a
-- window, cost as much as joining them.
CREATE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[])
  RETURNS TABLE (step_rows text, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE v_rows text; v_owners text[]; v_sum bigint; BEGIN
  SELECT string_agg(u.dependent_row, ','), array_agg(DISTINCT u.holder_owner_id), sum(u.n) INTO v_rows, v_owners, v_sum
    FROM dependency_step_candidates(p_ids, p_max_rows, p_org, p_with_url) u; IF v_sum > p_max_rows + 1 THEN
    SELECT string_agg(b.dependent_row, ','), array_agg(DISTINCT b.holder_owner_id) INTO v_rows, v_owners
      FROM (SELECT u.dependent_row, u.holder_owner_id, sum(u.n) OVER (ROWS UNBOUNDED PRECEDING) - u.n AS before
              FROM dependency_step_candidates(p_ids, p_max_rows, p_org, p_with_url) u) b
     WHERE b.before < p_max_rows + 1; END IF; RETURN QUERY SELECT v_rows, (SELECT json_build_array(array_agg(o.id), array_agg(o.username)) FROM users o WHERE o.id = ANY(v_owners) HAVING count(*) > 0); RETURN; END $$;

-- Migration 045's start of a walk, with the dependents step's rows (step_rows; step_edges is what items use's).
CREATE FUNCTION dependency_walk_start(p_id text, p_user text, p_org text, p_view_all boolean, p_direction text, p_max_rows integer)
  RETURNS TABLE (id text, org_id text, owner_id text, owner_username text, title text, type text, url text, access text, content_status text, status text,
                 created bigint, modified bigint, group_ids text[], caller_groups text[], step_edges json, step_rows text, step_nodes json, stepped boolean)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN RETURN QUERY
  SELECT n.id, n.org_id, n.owner_id, n.owner_username, n.title, n.type, n.url, n.access, n.content_status, n.status, n.created, n.modified, n.group_ids,
         g.ids, s.step_edges, s.step_rows, s.step_nodes, s.stepped
    FROM (SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status, i.created, i.modified,
                 ARRAY(SELECT sh.group_id FROM item_shares sh WHERE sh.item_id = i.id) AS group_ids
            FROM items i JOIN users o ON o.id = i.owner_id WHERE i.id = p_id) n
    CROSS JOIN (SELECT ARRAY(SELECT m.group_id FROM group_members m WHERE m.user_id = p_user) AS ids) g
    LEFT JOIN LATERAL (
      SELECT NULL::json AS step_edges, x.step_rows, x.step_nodes, true AS stepped
        FROM dependency_step_into(ARRAY[n.id], p_max_rows, n.org_id, CASE WHEN n.url IS NOT NULL THEN ARRAY[n.id] ELSE '{}'::text[] END) x
       WHERE p_direction = 'usedBy'
      UNION ALL
      SELECT x.step_edges, NULL::text, x.step_nodes, true FROM dependency_step_out_of(ARRAY[n.id], p_max_rows, ARRAY[n.id]) x WHERE p_direction = 'uses'
    ) s ON (n.access = 'public' OR (p_user IS NOT NULL AND (n.owner_id = p_user OR (n.org_id = p_org AND (n.access = 'org' OR p_view_all))
            OR n.group_ids && g.ids))) AND (n.status <> 'partial' OR n.owner_id IS NOT DISTINCT FROM p_user); RETURN; END $$;
