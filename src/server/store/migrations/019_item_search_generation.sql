-- A counter that moves whenever anything a search can see changes: items (what is searched, sorted
-- and who owns it), their group shares, group memberships (who may see a shared item) and usernames
-- (`owner:` and the owner sort). The search keeps each query's ordered matches while the counter
-- stands still (areas/items/searchLists.ts), so paging through a result set and its exact `total`
-- cost one lookup instead of reading every match again. Both databases read the same row; the
-- embedded database's own write counter moves on every write (a view count, a sign-in), this one
-- only on what search results depend on.
--
-- When it moves: at the end of each writing transaction, once. The triggers are deferred constraint
-- triggers, so the counter row is updated (and locked) only at COMMIT, as the transaction's last
-- step: a transaction never waits for another's counter lock while holding row locks the other
-- still needs (an immediate update would hold the counter from the first write to the commit, and two
-- transactions touching the same items in different orders could deadlock on it). A
-- transaction-local setting makes the first firing in a transaction the only one that writes, so a
-- bulk insert of 100,000 items moves it once. A change of num_views alone (every item view) does not
-- move it: the search does not keep lists ordered or filtered by views. The counter row is updated
-- inside the writing transaction, so a reader that sees a new value also sees the change (a sequence
-- would move before the commit and let a list built from the old rows be kept under the new value).
CREATE TABLE item_search_generation (
  id         integer PRIMARY KEY CHECK (id = 1),
  generation bigint NOT NULL
);

INSERT INTO item_search_generation (id, generation) VALUES (1, 0);

-- One line: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION bump_item_search_generation() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF current_setting('portal.item_search_bumped', true) IS DISTINCT FROM 'on' THEN UPDATE item_search_generation SET generation = generation + 1 WHERE id = 1; PERFORM set_config('portal.item_search_bumped', 'on', true); END IF; RETURN NULL; END $$;

CREATE CONSTRAINT TRIGGER items_search_generation AFTER INSERT OR DELETE ON items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_item_search_generation();

CREATE CONSTRAINT TRIGGER items_search_generation_update
  AFTER UPDATE OF id, org_id, owner_id, folder_id, title, type, name, type_keywords, description, tags, snippet, access, content_status, status, categories, extent, created, modified ON items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_item_search_generation();

CREATE CONSTRAINT TRIGGER item_shares_search_generation AFTER INSERT OR UPDATE OR DELETE ON item_shares
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_item_search_generation();

CREATE CONSTRAINT TRIGGER group_members_search_generation AFTER INSERT OR UPDATE OR DELETE ON group_members
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_item_search_generation();

CREATE CONSTRAINT TRIGGER users_search_generation AFTER UPDATE OF username ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_item_search_generation();

-- The title order with its tiebreaker (sortField=title reads lower(title), then id): a first page
-- sorted by title walks this index instead of sorting every match.
CREATE INDEX items_title_order ON items (lower(title), id);
