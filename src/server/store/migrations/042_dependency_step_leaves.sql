-- A walk step that takes no further step does not read its dependents' counts (issue 35 item 9).
-- Migration 040's dependency_step_into read each dependent's count (its item_reference_state row)
-- so that the walk need not step from items nothing uses; a direct answer (maxDepth 1) takes no
-- step after its first, so those reads were wasted: about a fifth of the step for a hot layer's
-- ~300 dependents on the embedded database. p_leaves false: the counts are null. Otherwise as 040.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.

DROP FUNCTION dependency_step_into(text[], integer, text, text[], text[]);

CREATE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_known text[], p_with_url text[], p_leaves boolean)
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH a AS MATERIALIZED (
    SELECT * FROM (
      SELECT r.item_id AS from_id, f.id AS to_id, r.kind, r.n, r.example, NULL::text AS relationship_type
        FROM unnest(ARRAY(SELECT unnest(p_ids))) AS f (id)
        CROSS JOIN LATERAL (SELECT x.item_id, x.kind, x.n, x.example FROM item_reference_edges x
                             WHERE x.target_item = f.id AND x.item_id <> f.id AND (p_org IS NULL OR x.org_id = p_org) LIMIT p_max_rows + 1) r
      UNION ALL
      SELECT r.item_id, s.item_id, r.kind, r.n, r.example, NULL
        FROM unnest(p_with_url) AS f (id)
        CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                             WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
        JOIN item_reference_edges r ON r.org_id = s.org_id AND r.target_url = s.service_key
      UNION ALL
      SELECT l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type
        FROM relationships l JOIN items o ON o.id = l.origin_id
       WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
    ) u WHERE u.from_id <> u.to_id LIMIT p_max_rows + 1),
  taken AS (
    SELECT b.from_id, b.to_id, b.kind, least(b.n, p_max_rows + 1 - b.before) AS n, b.example, b.relationship_type
      FROM (SELECT a.*, (sum(a.n) OVER (ROWS UNBOUNDED PRECEDING) - a.n)::int AS before FROM a) b
     WHERE b.before < p_max_rows + 1),
  e AS MATERIALIZED (
    SELECT t.from_id, t.to_id, t.kind, sum(t.n)::int AS n, min(t.example) AS example, min(t.relationship_type) AS relationship_type
      FROM taken t GROUP BY t.from_id, t.to_id, t.kind),
  node AS (
    SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status,
           i.created, i.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id) AS group_ids,
           CASE WHEN p_leaves THEN (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = i.id) END AS dependents
      FROM items i JOIN users o ON o.id = i.owner_id
     WHERE i.id = ANY(ARRAY(SELECT DISTINCT e.from_id FROM e WHERE e.from_id <> ALL(p_known))))
  SELECT (SELECT json_build_array(array_agg(e.from_id ORDER BY e.from_id, e.to_id, e.kind), array_agg(e.to_id ORDER BY e.from_id, e.to_id, e.kind),
            array_agg(e.kind ORDER BY e.from_id, e.to_id, e.kind), array_agg(e.n ORDER BY e.from_id, e.to_id, e.kind),
            array_agg(e.example ORDER BY e.from_id, e.to_id, e.kind), array_agg(e.relationship_type ORDER BY e.from_id, e.to_id, e.kind)) FROM e HAVING count(*) > 0),
         (SELECT json_build_array(array_agg(node.id), array_agg(node.org_id), array_agg(node.owner_id), array_agg(node.owner_username), array_agg(node.title),
            array_agg(node.type), array_agg(node.url), array_agg(node.access), array_agg(node.content_status), array_agg(node.status), array_agg(node.created),
            array_agg(node.modified), json_agg(node.group_ids), array_agg(node.dependents)) FROM node HAVING count(*) > 0); RETURN; END $$;
