-- Adding references folds only the rows added (migration 039 folded again every reference of the
-- items an insert touched, reading back what the statement had just written: with the dependent
-- counts' triggers, about half again the cost of the indexer's writes). Counts add up and the
-- first example is the least of the firsts, so the added rows fold into the items' existing rows.
-- A delete still folds the items' remaining references again (a least example cannot be taken back).
CREATE FUNCTION item_reference_edges_added() RETURNS trigger LANGUAGE plpgsql AS $$ DECLARE ids text[]; BEGIN ids := ARRAY(SELECT DISTINCT item_id FROM changed); WITH old AS (DELETE FROM item_reference_edges WHERE item_id = ANY(ids) RETURNING item_id, org_id, target_item, target_url, kind, n, example) INSERT INTO item_reference_edges (item_id, org_id, target_item, target_url, kind, n, example) SELECT item_id, org_id, target_item, target_url, kind, sum(n), min(example) FROM (SELECT * FROM old UNION ALL SELECT item_id, org_id, target_item, target_url, kind, count(*), min(path || chr(1) || value) FROM changed GROUP BY item_id, org_id, target_item, target_url, kind) f GROUP BY item_id, org_id, target_item, target_url, kind; RETURN NULL; END $$;

DROP TRIGGER item_references_refold_added ON item_references;

CREATE TRIGGER item_references_refold_added AFTER INSERT ON item_references REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION item_reference_edges_added();
