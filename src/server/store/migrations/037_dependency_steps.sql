-- One step of the dependency walk as a function (issue 35 item 9, areas/dependencies/edges.ts):
-- the statement a step ran was planned anew at every step, and on the embedded database planning
-- it cost about as much as running it (a hot layer's transitive dependents are two steps, the
-- adversarial ring's two). PL/pgSQL keeps each statement's plan for the connection; the arrays are
-- read through InitPlans, so the generic plan is the plan a custom one was: it is forced.
--
-- The walk itself (visibility, bounds, `truncated`) stays in edges.ts and walk.ts; this only reads.
-- A step's answer is one row of two JSON arrays (edges, node rows), as edges.ts `fold` reads it:
-- edges [from, to, kind, count, example, relationship type], at most p_max_rows + 1 reference rows
-- read in all, folded per (from, to, kind); node rows in nodes.ts NodeTuple's order, with the
-- item's dependent count (dependents only; null for what items use), of the onward ends not in p_known.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.

CREATE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_known text[], p_with_url text[])
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH e AS MATERIALIZED (
    SELECT u.from_id, u.to_id, u.kind, count(*)::int AS n, min(u.path || chr(1) || u.value) AS example, min(u.relationship_type) AS relationship_type
      FROM (SELECT * FROM (
        SELECT r.item_id AS from_id, f.id AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
          FROM unnest(ARRAY(SELECT unnest(p_ids))) AS f (id)
          CROSS JOIN LATERAL (SELECT x.item_id, x.kind, x.path, x.value FROM item_references x
                               WHERE x.target_item = f.id AND x.item_id <> f.id AND (p_org IS NULL OR x.org_id = p_org) LIMIT p_max_rows + 1) r
        UNION ALL
        SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
          FROM unnest(p_with_url) AS f (id)
          CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                               WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
          JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
        UNION ALL
        SELECT l.origin_id, l.destination_id, 'relationship', '', '', l.type
          FROM relationships l JOIN items o ON o.id = l.origin_id
         WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
      ) a WHERE a.from_id <> a.to_id LIMIT p_max_rows + 1) u
     GROUP BY u.from_id, u.to_id, u.kind),
  node AS (
    SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status,
           i.created, i.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id) AS group_ids,
           (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = i.id) AS dependents
      FROM items i JOIN users o ON o.id = i.owner_id
     WHERE i.id = ANY(ARRAY(SELECT DISTINCT e.from_id FROM e WHERE e.from_id <> ALL(p_known))))
  SELECT (SELECT json_agg(json_build_array(e.from_id, e.to_id, e.kind, e.n, e.example, e.relationship_type) ORDER BY e.from_id, e.to_id, e.kind) FROM e),
         (SELECT json_agg(json_build_array(json_build_array(node.id, node.org_id, node.owner_id, node.owner_username, node.title, node.type, node.url,
            node.access, node.content_status, node.status, node.created, node.modified, node.group_ids), node.dependents)) FROM node); RETURN; END $$;

CREATE FUNCTION dependency_step_out_of(p_ids text[], p_max_rows integer, p_known text[])
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH e AS MATERIALIZED (
    SELECT u.from_id, u.to_id, u.kind, count(*)::int AS n, min(u.path || chr(1) || u.value) AS example, min(u.relationship_type) AS relationship_type
      FROM (SELECT * FROM (
        SELECT f.id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
          FROM unnest(ARRAY(SELECT unnest(p_ids))) AS f (id)
          CROSS JOIN LATERAL (SELECT x.target_item, x.kind, x.path, x.value FROM item_references x
                               WHERE x.item_id = f.id AND x.target_item IS NOT NULL AND x.target_item <> f.id LIMIT p_max_rows + 1) r
        UNION ALL
        SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
          FROM item_references r
          JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
         WHERE r.item_id = ANY(ARRAY(SELECT unnest(p_ids))) AND r.target_url IS NOT NULL
        UNION ALL
        SELECT l.origin_id, l.destination_id, 'relationship', '', '', l.type FROM relationships l WHERE l.origin_id = ANY(ARRAY(SELECT unnest(p_ids)))
      ) a WHERE a.from_id <> a.to_id LIMIT p_max_rows + 1) u
     GROUP BY u.from_id, u.to_id, u.kind),
  node AS (
    SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status,
           i.created, i.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id) AS group_ids
      FROM items i JOIN users o ON o.id = i.owner_id
     WHERE i.id = ANY(ARRAY(SELECT DISTINCT e.to_id FROM e WHERE e.to_id <> ALL(p_known))))
  SELECT (SELECT json_agg(json_build_array(e.from_id, e.to_id, e.kind, e.n, e.example, e.relationship_type) ORDER BY e.from_id, e.to_id, e.kind) FROM e),
         (SELECT json_agg(json_build_array(json_build_array(node.id, node.org_id, node.owner_id, node.owner_username, node.title, node.type, node.url,
            node.access, node.content_status, node.status, node.created, node.modified, node.group_ids), NULL::int)) FROM node); RETURN; END $$;
