-- Per-item dependent counts in the reference index (issue 35, docs/dependencies.md "The
-- organization view"): how many items of the item's own organization use it (by id, by its service
-- key, or as a relationship's origin; itself not counted), so that the organization view (unused,
-- usedByMany) reads one page of an index instead of every reference of the organization.
--
-- Kept by the database, in the transaction of the change: statement triggers on item_references
-- (the indexer's writes, and the cascade of an item's delete), on relationships, and on a change of
-- an item's service key recount the items whose dependents may have changed. Another
-- organization's items never count (they are no dependents in this organization's views).
ALTER TABLE item_reference_state ADD COLUMN dependents integer NOT NULL DEFAULT 0;

-- One line each: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION item_dependents_recount(ids text[]) RETURNS void LANGUAGE sql AS $$ UPDATE item_reference_state st SET dependents = (SELECT count(*) FROM (SELECT r.item_id FROM item_references r WHERE r.target_item = st.item_id AND r.org_id = st.org_id AND r.item_id <> st.item_id UNION SELECT r.item_id FROM item_references r WHERE st.service_key IS NOT NULL AND r.org_id = st.org_id AND r.target_url = st.service_key AND r.item_id <> st.item_id UNION SELECT l.origin_id FROM relationships l JOIN items o ON o.id = l.origin_id WHERE l.destination_id = st.item_id AND o.org_id = st.org_id AND l.origin_id <> st.item_id) d) WHERE st.item_id = ANY(ids) $$;

-- The items a set of reference rows names: by id, and by service key within the holder's organization.
CREATE FUNCTION item_references_changed() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT t.target_item FROM changed t WHERE t.target_item IS NOT NULL UNION SELECT s.item_id FROM changed t JOIN item_reference_state s ON s.org_id = t.org_id AND s.service_key = t.target_url WHERE t.target_url IS NOT NULL); IF cardinality(ids) > 0 THEN PERFORM item_dependents_recount(ids); END IF; RETURN NULL; END $$;

CREATE TRIGGER item_references_added AFTER INSERT ON item_references REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_references_changed();

CREATE TRIGGER item_references_removed AFTER DELETE ON item_references REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_references_changed();

CREATE FUNCTION item_relationships_changed() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT DISTINCT destination_id FROM changed); IF cardinality(ids) > 0 THEN PERFORM item_dependents_recount(ids); END IF; RETURN NULL; END $$;

CREATE TRIGGER relationships_added AFTER INSERT ON relationships REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_relationships_changed();

CREATE TRIGGER relationships_removed AFTER DELETE ON relationships REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_relationships_changed();

-- A new or changed service key: URL references of the organization now name (or no longer name) the item.
CREATE FUNCTION item_service_key_added() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT item_id FROM changed WHERE service_key IS NOT NULL); IF cardinality(ids) > 0 THEN PERFORM item_dependents_recount(ids); END IF; RETURN NULL; END $$;

CREATE FUNCTION item_service_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT n.item_id FROM changed n JOIN before o ON o.item_id = n.item_id WHERE n.service_key IS DISTINCT FROM o.service_key OR n.org_id IS DISTINCT FROM o.org_id); IF cardinality(ids) > 0 THEN PERFORM item_dependents_recount(ids); END IF; RETURN NULL; END $$;

CREATE TRIGGER item_reference_state_added_key AFTER INSERT ON item_reference_state REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_service_key_added();

CREATE TRIGGER item_reference_state_changed_key AFTER UPDATE ON item_reference_state REFERENCING NEW TABLE AS changed OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION item_service_key_changed();

-- The organization view: unused (dependents 0) and usedByMany (most first), per organization.
CREATE INDEX item_reference_state_dependents ON item_reference_state (org_id, dependents DESC, item_id);

SELECT item_dependents_recount(ARRAY(SELECT item_id FROM item_reference_state));
