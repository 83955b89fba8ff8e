-- The dependents step reads each dependent's node row from its folded reference rows (issue 35
-- item 9). Migration 042's dependency_step_into read the edges into the items of a step, then, for
-- each dependent met, its items row, its shares and its reference state: three index probes per
-- dependent, most of a hot layer's step (~300 dependents) on the embedded database, where a probe
-- costs about as much as the row it finds. The folded rows (migration 039) now carry what a node
-- row shows and what deciding its visibility reads of the item holding them (the holder): a step
-- reads one row per edge and nothing else.
--
-- Kept by the database in the transaction of the change: a folded row is filled from its holder
-- when it is written; a change of the holder's listed columns, of its group shares or of its
-- dependent count is copied to its folded rows (a few per item: what it names). The owner's
-- username is read per step, once per distinct owner (a rename changes no folded row).
-- Relationships (no folded rows) are read from items as before.
ALTER TABLE item_reference_edges
  ADD COLUMN holder_owner_id text,
  ADD COLUMN holder_title text,
  ADD COLUMN holder_type text,
  ADD COLUMN holder_url text,
  ADD COLUMN holder_access text,
  ADD COLUMN holder_content_status text,
  ADD COLUMN holder_status text,
  ADD COLUMN holder_created bigint,
  ADD COLUMN holder_modified bigint,
  ADD COLUMN holder_group_ids text[],
  ADD COLUMN holder_dependents integer;

UPDATE item_reference_edges e SET holder_owner_id = i.owner_id, holder_title = i.title, holder_type = i.type, holder_url = i.url, holder_access = i.access, holder_content_status = i.content_status, holder_status = i.status, holder_created = i.created, holder_modified = i.modified, holder_group_ids = ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id), holder_dependents = (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = i.id) FROM items i WHERE i.id = e.item_id;

-- One line each: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION item_reference_edges_holder() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN SELECT i.owner_id, i.title, i.type, i.url, i.access, i.content_status, i.status, i.created, i.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id), (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = i.id) INTO NEW.holder_owner_id, NEW.holder_title, NEW.holder_type, NEW.holder_url, NEW.holder_access, NEW.holder_content_status, NEW.holder_status, NEW.holder_created, NEW.holder_modified, NEW.holder_group_ids, NEW.holder_dependents FROM items i WHERE i.id = NEW.item_id; RETURN NEW; END $$;

CREATE TRIGGER item_reference_edges_holder BEFORE INSERT ON item_reference_edges FOR EACH ROW EXECUTE FUNCTION item_reference_edges_holder();

CREATE FUNCTION item_reference_edges_holder_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE item_reference_edges SET holder_owner_id = NEW.owner_id, holder_title = NEW.title, holder_type = NEW.type, holder_url = NEW.url, holder_access = NEW.access, holder_content_status = NEW.content_status, holder_status = NEW.status, holder_created = NEW.created, holder_modified = NEW.modified WHERE item_id = NEW.id; RETURN NULL; END $$;

CREATE TRIGGER items_reference_edges_holder AFTER UPDATE ON items FOR EACH ROW WHEN ((OLD.owner_id, OLD.title, OLD.type, OLD.url, OLD.access, OLD.content_status, OLD.status, OLD.created, OLD.modified) IS DISTINCT FROM (NEW.owner_id, NEW.title, NEW.type, NEW.url, NEW.access, NEW.content_status, NEW.status, NEW.created, NEW.modified)) EXECUTE FUNCTION item_reference_edges_holder_changed();

CREATE FUNCTION item_reference_edges_shares_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE item_reference_edges e SET holder_group_ids = ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = e.item_id) WHERE e.item_id = ANY(ARRAY(SELECT DISTINCT item_id FROM changed)); RETURN NULL; END $$;

CREATE TRIGGER item_shares_reference_edges_added AFTER INSERT ON item_shares REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_shares_changed();

CREATE TRIGGER item_shares_reference_edges_removed AFTER DELETE ON item_shares REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_shares_changed();

CREATE TRIGGER item_shares_reference_edges_moved AFTER UPDATE ON item_shares REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_shares_changed();

-- A recount changes most counts it touches by one; only the holders whose count changed are written.
CREATE FUNCTION item_reference_edges_dependents_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE item_reference_edges e SET holder_dependents = c.dependents FROM changed c WHERE e.item_id = c.item_id AND e.holder_dependents IS DISTINCT FROM c.dependents; RETURN NULL; END $$;

CREATE TRIGGER item_reference_state_edges_added AFTER INSERT ON item_reference_state REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_dependents_changed();

CREATE TRIGGER item_reference_state_edges_changed AFTER UPDATE ON item_reference_state REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_dependents_changed();

-- The dependents step, bounded as migration 042's (at most p_max_rows + 1 folded rows, each
-- standing for its count, taken while fewer than p_max_rows + 1 references came before: a running
-- sum in the order read), and shaped for the embedded database, where materializing or sorting a
-- row costs about as much as reading it:
-- - the folded rows naming the step's items are read in one scan of the target index (a
--   transitive walk's second level from a hot layer steps from ~140 maps at once); which rows a cut
--   step takes follows the index's order;
-- - each row carries its holder's node row (a relationship's origin is read from items), so no
--   dependent is probed in items, shares or state;
-- - the rows are answered as read, and the walk folds them into edges and nodes (areas/dependencies/
--   edges.ts stepOfDependents) instead of the statement grouping and sorting them three more times.
-- An item naming itself is no edge (from <> to). No `known` list: the walk skips what it met before.
--
-- step_edges: one JSON array per column: from, to, kind, count, example, relationship type, then
-- the holder's organization, owner, title, type, url, access, content status, status, created,
-- modified, group ids and dependent count (null without p_leaves). step_nodes: the owners' ids and
-- usernames (once per distinct owner). No row: null.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.
DROP FUNCTION dependency_step_into(text[], integer, text, text[], text[], boolean);

CREATE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[], p_leaves boolean)
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
