-- The statement that starts a dependency walk as a function (issue 35 item 9, areas/dependencies/
-- nodes.ts startOfWalk): the item asked about (its node row), the caller's groups and, when the
-- caller may see the item, the walk's first step (migrations 040 and 044). Sent as a statement
-- with parameters it was planned at every answer: about 1.4 ms on the embedded database at best,
-- as much as a primary-key read's whole statement. PL/pgSQL keeps the plan for the connection.
-- The rule for the first step is nodes.ts mayViewNode's (the answer still decides with it): a step
-- taken for an item the caller may not see would make that refusal slower than an unknown id's.
-- p_view_all: the caller may view every item of their organization; p_direction null: no step.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.

CREATE FUNCTION dependency_walk_start(p_id text, p_user text, p_org text, p_view_all boolean, p_direction text, p_max_rows integer, p_leaves boolean)
  RETURNS TABLE (id text, org_id text, owner_id text, owner_username text, title text, type text, url text, access text, content_status text, status text,
                 created bigint, modified bigint, group_ids text[], caller_groups text[], step_edges json, step_nodes json, stepped boolean)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN RETURN QUERY
  SELECT n.id, n.org_id, n.owner_id, n.owner_username, n.title, n.type, n.url, n.access, n.content_status, n.status, n.created, n.modified, n.group_ids,
         g.ids, s.step_edges, s.step_nodes, s.stepped
    FROM (SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status, i.created, i.modified,
                 ARRAY(SELECT sh.group_id FROM item_shares sh WHERE sh.item_id = i.id) AS group_ids
            FROM items i JOIN users o ON o.id = i.owner_id WHERE i.id = p_id) n
    CROSS JOIN (SELECT ARRAY(SELECT m.group_id FROM group_members m WHERE m.user_id = p_user) AS ids) g
    LEFT JOIN LATERAL (
      SELECT x.step_edges, x.step_nodes, true AS stepped
        FROM dependency_step_into(ARRAY[n.id], p_max_rows, n.org_id, CASE WHEN n.url IS NOT NULL THEN ARRAY[n.id] ELSE '{}'::text[] END, p_leaves) x
       WHERE p_direction = 'usedBy'
      UNION ALL
      SELECT x.step_edges, x.step_nodes, true FROM dependency_step_out_of(ARRAY[n.id], p_max_rows, ARRAY[n.id]) x WHERE p_direction = 'uses'
    ) s ON (n.access = 'public' OR (p_user IS NOT NULL AND (n.owner_id = p_user OR (n.org_id = p_org AND (n.access = 'org' OR p_view_all))
            OR n.group_ids && g.ids))) AND (n.status <> 'partial' OR n.owner_id IS NOT DISTINCT FROM p_user); RETURN; END $$;
