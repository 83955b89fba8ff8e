-- The dependents step reads the folded rows naming its items in one index scan (issue 35 item 9):
-- migration 046's statement read them per item (a lateral scan with its own limit for each), and
-- a transitive walk's second level from a hot layer steps from ~140 maps at once: one scan of the
-- target index for all of them costs about a sixth less on the embedded database. The bound is the
-- statement's (at most p_max_rows + 1 folded rows, cut at p_max_rows + 1 references); which rows a
-- cut step takes follows the index's order instead of the items' order (either is the bound's).
-- An item naming itself is still no edge (the statement's from <> to). Otherwise as migration 046.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.

CREATE OR REPLACE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[], p_leaves boolean)
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH a AS MATERIALIZED (
    SELECT * FROM (
      SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.n, r.example, NULL::text AS relationship_type, r.org_id, r.holder_owner_id, r.holder_title,
             r.holder_type, r.holder_url, r.holder_access, r.holder_content_status, r.holder_status, r.holder_created, r.holder_modified,
             r.holder_group_ids, r.holder_dependents
        FROM item_reference_edges r
       WHERE r.target_item = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR r.org_id = p_org)
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
