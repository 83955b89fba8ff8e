-- The organization view read from indexes only (issue 35 item 9, docs/dependencies.md "The
-- organization view"): migration 023 keeps each item's dependent count; this keeps what the view
-- sorts by and what its `total` counts beside it, so a first page is an index scan with a LIMIT
-- and its total a sum of a few rows, whatever the organization's size.
--
-- 1. `modified`, a copy of items.modified (the unused view's order), kept by the triggers that add
--    the row and follow the item's changes; with an index of the unused items only, in that order.
ALTER TABLE item_reference_state ADD COLUMN modified bigint NOT NULL DEFAULT 0;

UPDATE item_reference_state st SET modified = i.modified FROM items i WHERE i.id = st.item_id;

-- One line each: the migration runner splits statements at a semicolon that ends a line.
CREATE OR REPLACE FUNCTION item_reference_state_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO item_reference_state (item_id, org_id, modified) VALUES (NEW.id, NEW.org_id, NEW.modified) ON CONFLICT (item_id) DO NOTHING; RETURN NULL; END $$;

CREATE FUNCTION item_reference_state_modified() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE item_reference_state SET modified = NEW.modified WHERE item_id = NEW.id; RETURN NULL; END $$;

CREATE TRIGGER items_reference_state_modified AFTER UPDATE OF modified ON items FOR EACH ROW WHEN (OLD.modified IS DISTINCT FROM NEW.modified) EXECUTE FUNCTION item_reference_state_modified();

CREATE INDEX item_reference_state_unused ON item_reference_state (org_id, modified, item_id) WHERE dependents = 0;

-- 2. How many items of an organization have each dependent count, as signed additions: every
--    statement that adds, removes or recounts state rows appends one row per (organization, count)
--    it changed, so concurrent writers never wait on one counter row. The view sums an
--    organization's rows (total unused: the sum at 0; used by at least n: the sums at n and above)
--    and folds them into one row per count when they have piled up (summary.ts compactTally).
CREATE TABLE item_dependent_tally (
  org_id     text NOT NULL,
  dependents integer NOT NULL,
  items      integer NOT NULL
);
CREATE INDEX item_dependent_tally_org ON item_dependent_tally (org_id, dependents);

CREATE FUNCTION item_dependent_tally_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO item_dependent_tally (org_id, dependents, items) SELECT org_id, dependents, count(*) FROM changed GROUP BY org_id, dependents; RETURN NULL; END $$;

CREATE FUNCTION item_dependent_tally_removed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO item_dependent_tally (org_id, dependents, items) SELECT org_id, dependents, -count(*) FROM changed GROUP BY org_id, dependents; RETURN NULL; END $$;

-- Most updates (a version, a service key) change no count: they add nothing.
CREATE FUNCTION item_dependent_tally_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO item_dependent_tally (org_id, dependents, items) SELECT org_id, dependents, sum(n) FROM (SELECT org_id, dependents, 1 AS n FROM changed UNION ALL SELECT org_id, dependents, -1 FROM before) d GROUP BY org_id, dependents HAVING sum(n) <> 0; RETURN NULL; END $$;

CREATE TRIGGER item_reference_state_tally_added AFTER INSERT ON item_reference_state REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_dependent_tally_added();

CREATE TRIGGER item_reference_state_tally_removed AFTER DELETE ON item_reference_state REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_dependent_tally_removed();

CREATE TRIGGER item_reference_state_tally_changed AFTER UPDATE ON item_reference_state REFERENCING NEW TABLE AS changed OLD TABLE AS before FOR EACH STATEMENT EXECUTE FUNCTION item_dependent_tally_changed();

INSERT INTO item_dependent_tally (org_id, dependents, items) SELECT org_id, dependents, count(*) FROM item_reference_state GROUP BY org_id, dependents;

-- 3. The URL references an item holds (what it uses by address, the URLs the walk lists), read
--    without passing its id references: a map naming other maps thousands of times has only those.
CREATE INDEX item_references_item_url ON item_references (item_id) WHERE target_url IS NOT NULL;
