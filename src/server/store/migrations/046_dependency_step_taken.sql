-- The dependents step answers only the rows the walk takes (issue 35 item 9): migration 045's
-- statement answered every folded row it read (up to p_max_rows + 1), and the walk took them while
-- fewer than p_max_rows + 1 references were taken; on the adversarial ring (thirty maps naming each
-- other 2,000 times) a step read 841 rows and the walk took 59, so most of what was converted to
-- JSON and back was dropped. The same cut is made here with a running sum (rows in the order read,
-- while fewer than p_max_rows + 1 references came before): a hot layer's step (no cut) costs what
-- it did, the ring's half. The walk still folds and bounds what it is given (edges.ts stepOfDependents).
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
    ) u WHERE u.from_id <> u.to_id LIMIT p_max_rows + 1),
  taken AS MATERIALIZED (SELECT * FROM (SELECT a.*, sum(a.n) OVER (ROWS UNBOUNDED PRECEDING) - a.n AS before FROM a) b WHERE b.before < p_max_rows + 1)
  SELECT (SELECT json_build_array(array_agg(a.from_id), array_agg(a.to_id), array_agg(a.kind), array_agg(a.n), array_agg(a.example), array_agg(a.relationship_type),
            array_agg(a.org_id), array_agg(a.holder_owner_id), array_agg(a.holder_title), array_agg(a.holder_type), array_agg(a.holder_url), array_agg(a.holder_access),
            array_agg(a.holder_content_status), array_agg(a.holder_status), array_agg(a.holder_created), array_agg(a.holder_modified), json_agg(a.holder_group_ids),
            array_agg(CASE WHEN p_leaves THEN a.holder_dependents END)) FROM taken a HAVING count(*) > 0),
         (SELECT json_build_array(array_agg(o.id), array_agg(o.username)) FROM users o
           WHERE o.id = ANY(ARRAY(SELECT DISTINCT a.holder_owner_id FROM taken a WHERE a.holder_owner_id IS NOT NULL)) HAVING count(*) > 0); RETURN; END $$;
