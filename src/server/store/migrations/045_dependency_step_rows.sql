-- The dependents step answers the rows it read, in the order read, and the walk folds them
-- (issue 35 item 9, areas/dependencies/edges.ts stepOfDependents): migration 044's statement
-- materialized them three more times in the database (the rows taken within the bound, the edges
-- folded per (from, to, kind), the node rows per dependent) and sorted them, which on the embedded
-- database cost more than reading them: for a hot layer's ~300 dependents about twice a statement
-- that aggregates the same rows once. What is read and its bound are migration 044's: at most
-- p_max_rows + 1 folded rows (each standing for its count), each with its holder's node row (a
-- relationship's origin read from items); the walk takes them while fewer than p_max_rows + 1
-- references were taken, as the statement did.
--
-- step_edges: one JSON array per column: from, to, kind, count, example, relationship type, then
-- the holder's organization, owner, title, type, url, access, content status, status, created,
-- modified, group ids and dependent count (null without p_leaves). step_nodes: the owners' ids and
-- usernames (once per distinct owner). No row: null.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.

CREATE OR REPLACE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[], p_leaves boolean)
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH a AS MATERIALIZED (
    SELECT * FROM (
      SELECT r.item_id AS from_id, f.id AS to_id, r.kind, r.n, r.example, NULL::text AS relationship_type, r.org_id, r.holder_owner_id, r.holder_title,
             r.holder_type, r.holder_url, r.holder_access, r.holder_content_status, r.holder_status, r.holder_created, r.holder_modified,
             r.holder_group_ids, r.holder_dependents
        FROM unnest(ARRAY(SELECT unnest(p_ids))) AS f (id)
        CROSS JOIN LATERAL (SELECT x.* FROM item_reference_edges x
                             WHERE x.target_item = f.id AND x.item_id <> f.id AND (p_org IS NULL OR x.org_id = p_org) LIMIT p_max_rows + 1) r
      UNION ALL
      SELECT r.item_id, s.item_id, r.kind, r.n, r.example, NULL, r.org_id, r.holder_owner_id, r.holder_title, r.holder_type, r.holder_url,
             r.holder_access, r.holder_content_status, r.holder_status, r.holder_created, r.holder_modified, r.holder_group_ids, r.holder_dependents
        FROM unnest(p_with_url) AS f (id)
        CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                             WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
        JOIN item_reference_edges r ON r.org_id = s.org_id AND r.target_url = s.service_key
      UNION ALL
      SELECT l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type, o.org_id, o.owner_id, o.title, o.type, o.url, o.access, o.content_status,
             o.status, o.created, o.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = o.id),
             (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = o.id)
        FROM relationships l JOIN items o ON o.id = l.origin_id
       WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
    ) u WHERE u.from_id <> u.to_id LIMIT p_max_rows + 1)
  SELECT (SELECT json_build_array(array_agg(a.from_id), array_agg(a.to_id), array_agg(a.kind), array_agg(a.n), array_agg(a.example), array_agg(a.relationship_type),
            array_agg(a.org_id), array_agg(a.holder_owner_id), array_agg(a.holder_title), array_agg(a.holder_type), array_agg(a.holder_url), array_agg(a.holder_access),
            array_agg(a.holder_content_status), array_agg(a.holder_status), array_agg(a.holder_created), array_agg(a.holder_modified), json_agg(a.holder_group_ids),
            array_agg(CASE WHEN p_leaves THEN a.holder_dependents END)) FROM a HAVING count(*) > 0),
         (SELECT json_build_array(array_agg(o.id), array_agg(o.username)) FROM users o
           WHERE o.id = ANY(ARRAY(SELECT DISTINCT a.holder_owner_id FROM a WHERE a.holder_owner_id IS NOT NULL)) HAVING count(*) > 0); RETURN; END $$;
