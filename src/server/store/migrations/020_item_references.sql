-- The reference index (issue 26, docs/dependencies.md "On the local portal"): what each item uses,
-- read from its data and URL by src/shared/references scanReferences, one row per reference, so
-- that "what uses this item" is an index lookup instead of reading every item's JSON.
--
-- Written in the same transaction as the change it follows (areas/dependencies/indexer.ts, called
-- by addItem, update, a multipart commit and an async download); a delete cascades. Relationships
-- are not copied: they are rows of `relationships` (origin uses destination), read as edges.
CREATE TABLE item_references (
  -- The item whose data (or URL) holds the reference.
  item_id     text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  -- The using item's organization: a URL reference resolves to service items of that organization.
  org_id      text NOT NULL,
  -- What it names: an item id (lower case) or a URL as normalizeUrl gives it (a service root).
  target_item text,
  target_url  text,
  kind        text NOT NULL,
  -- JSON Pointer to the string in the item's data ('/url' for the item's own URL).
  path        text NOT NULL,
  value       text NOT NULL,
  CHECK ((target_item IS NULL) <> (target_url IS NULL))
);
CREATE INDEX item_references_item ON item_references (item_id);
CREATE INDEX item_references_target_item ON item_references (target_item) WHERE target_item IS NOT NULL;
CREATE INDEX item_references_target_url ON item_references (org_id, target_url) WHERE target_url IS NOT NULL;

-- Per item: its service key (serviceKeyOf: the normalised service root when its URL is an ArcGIS
-- service), which URL references resolve to, and the extractor version its references were read
-- with. Version 0 means "not read yet": a trigger adds that row for every new item, whatever
-- inserted it, and marks an item whose URL, type or data changed outside the indexer's reach; the
-- start-up indexer reads every row below the current version (SQL cannot run the extractor, so
-- the items of an existing database start at 0 here and are read at the first start).
CREATE TABLE item_reference_state (
  item_id     text PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
  org_id      text NOT NULL,
  service_key text,
  version     integer NOT NULL DEFAULT 0
);
CREATE INDEX item_reference_state_key ON item_reference_state (org_id, service_key) WHERE service_key IS NOT NULL;
CREATE INDEX item_reference_state_version ON item_reference_state (version);

INSERT INTO item_reference_state (item_id, org_id) SELECT id, org_id FROM items;

-- One line each: the migration runner splits statements at a semicolon that ends a line.
CREATE FUNCTION item_reference_state_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO item_reference_state (item_id, org_id) VALUES (NEW.id, NEW.org_id) ON CONFLICT (item_id) DO NOTHING; RETURN NULL; END $$;

CREATE FUNCTION item_reference_state_stale() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE item_reference_state SET version = 0 WHERE item_id = NEW.id AND version <> 0; RETURN NULL; END $$;

CREATE TRIGGER items_reference_state_added AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION item_reference_state_added();

CREATE TRIGGER items_reference_state_stale AFTER UPDATE OF url, type, data_kind, data_text, data_blob ON items FOR EACH ROW
  WHEN (OLD.url IS DISTINCT FROM NEW.url OR OLD.type IS DISTINCT FROM NEW.type OR OLD.data_kind IS DISTINCT FROM NEW.data_kind
        OR OLD.data_text IS DISTINCT FROM NEW.data_text OR OLD.data_blob IS DISTINCT FROM NEW.data_blob)
  EXECUTE FUNCTION item_reference_state_stale();

-- "What does this item use" reads relationships by origin; only the destination had an index.
CREATE INDEX relationships_origin ON relationships (origin_id);
