-- The reference index folded per (item, target, kind) (issue 35 items 2 and 9): one row per what an
-- item names and how, with how many times (`n`) and its first place by path (`example`: the path
-- and the value joined by U+0001, as the walk's edges give them). A step of the dependency walk
-- reads these instead of the reference rows: thirty maps naming each other thousands of times are
-- 870 rows here, not 60,000, and a step of the adversarial ring reads a few dozen of them.
--
-- Kept by the database in the transaction of the change: statement triggers on item_references
-- (the indexer's writes, and the cascade of an item's delete) fold again the rows of the items
-- whose references changed.
CREATE TABLE item_reference_edges (
  item_id     text NOT NULL,
  org_id      text NOT NULL,
  target_item text,
  target_url  text,
  kind        text NOT NULL,
  n           integer NOT NULL,
  example     text NOT NULL
);
CREATE INDEX item_reference_edges_item ON item_reference_edges (item_id);
CREATE INDEX item_reference_edges_target_item ON item_reference_edges (target_item) WHERE target_item IS NOT NULL;
CREATE INDEX item_reference_edges_target_url ON item_reference_edges (org_id, target_url) WHERE target_url IS NOT NULL;

INSERT INTO item_reference_edges (item_id, org_id, target_item, target_url, kind, n, example)
SELECT item_id, org_id, target_item, target_url, kind, count(*), min(path || chr(1) || value) FROM item_references GROUP BY item_id, org_id, target_item, target_url, kind;

-- One line each: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION item_reference_edges_refold() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT DISTINCT item_id FROM changed); DELETE FROM item_reference_edges WHERE item_id = ANY(ids); INSERT INTO item_reference_edges (item_id, org_id, target_item, target_url, kind, n, example) SELECT item_id, org_id, target_item, target_url, kind, count(*), min(path || chr(1) || value) FROM item_references WHERE item_id = ANY(ids) GROUP BY item_id, org_id, target_item, target_url, kind; RETURN NULL; END $$;

CREATE TRIGGER item_references_refold_added AFTER INSERT ON item_references REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_refold();

CREATE TRIGGER item_references_refold_removed AFTER DELETE ON item_references REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_refold();

-- The walk's steps (migration 037) read the folded rows. A step still reads at most p_max_rows + 1
-- references: a folded row stands for its n, rows are taken in the order read while fewer were
-- taken, and the last one counts only those up to the bound (as reading the reference rows one by
-- one stopped there). At most p_max_rows + 1 folded rows are read (each stands for one or more).
CREATE OR REPLACE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_known text[], p_with_url text[])
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
           (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = i.id) AS dependents
      FROM items i JOIN users o ON o.id = i.owner_id
     WHERE i.id = ANY(ARRAY(SELECT DISTINCT e.from_id FROM e WHERE e.from_id <> ALL(p_known))))
  SELECT (SELECT json_agg(json_build_array(e.from_id, e.to_id, e.kind, e.n, e.example, e.relationship_type) ORDER BY e.from_id, e.to_id, e.kind) FROM e),
         (SELECT json_agg(json_build_array(json_build_array(node.id, node.org_id, node.owner_id, node.owner_username, node.title, node.type, node.url,
            node.access, node.content_status, node.status, node.created, node.modified, node.group_ids), node.dependents)) FROM node); RETURN; END $$;

CREATE OR REPLACE FUNCTION dependency_step_out_of(p_ids text[], p_max_rows integer, p_known text[])
  RETURNS TABLE (step_edges json, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN RETURN QUERY
  WITH a AS MATERIALIZED (
    SELECT * FROM (
      SELECT f.id AS from_id, r.target_item AS to_id, r.kind, r.n, r.example, NULL::text AS relationship_type
        FROM unnest(ARRAY(SELECT unnest(p_ids))) AS f (id)
        CROSS JOIN LATERAL (SELECT x.target_item, x.kind, x.n, x.example FROM item_reference_edges x
                             WHERE x.item_id = f.id AND x.target_item IS NOT NULL AND x.target_item <> f.id LIMIT p_max_rows + 1) r
      UNION ALL
      SELECT r.item_id, s.item_id, r.kind, r.n, r.example, NULL
        FROM item_reference_edges r
        JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
       WHERE r.item_id = ANY(ARRAY(SELECT unnest(p_ids))) AND r.target_url IS NOT NULL
      UNION ALL
      SELECT l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type FROM relationships l WHERE l.origin_id = ANY(ARRAY(SELECT unnest(p_ids)))
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
           i.created, i.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id) AS group_ids
      FROM items i JOIN users o ON o.id = i.owner_id
     WHERE i.id = ANY(ARRAY(SELECT DISTINCT e.to_id FROM e WHERE e.to_id <> ALL(p_known))))
  SELECT (SELECT json_agg(json_build_array(e.from_id, e.to_id, e.kind, e.n, e.example, e.relationship_type) ORDER BY e.from_id, e.to_id, e.kind) FROM e),
         (SELECT json_agg(json_build_array(json_build_array(node.id, node.org_id, node.owner_id, node.owner_username, node.title, node.type, node.url,
            node.access, node.content_status, node.status, node.created, node.modified, node.group_ids), NULL::int)) FROM node); RETURN; END $$;
