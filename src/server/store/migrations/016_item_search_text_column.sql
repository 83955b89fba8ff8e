-- Free-text search reads a stored, lower-cased copy of the four searched fields instead of computing
-- item_search_text(...) ILIKE for every candidate row. On 100,000 items the per-row test was most of
-- the cost of a broad term: counting 20,000 matches took 158 ms with the expression and ILIKE, 40 ms
-- with this column and LIKE (the service lower-cases the pattern; ILIKE is defined as exactly that,
-- both sides lower-cased, so matches are unchanged). The trigram index moves to the column, keeping
-- its name and migration 015's setting (no pending list).
ALTER TABLE items ADD COLUMN search_text text GENERATED ALWAYS AS (lower(item_search_text(title, snippet, description, tags))) STORED;

DROP INDEX items_search_trgm;

CREATE INDEX items_search_trgm ON items USING gin (search_text public.gin_trgm_ops) WITH (fastupdate = off);

-- The default order of a search (no sortField: authoritative first, then the most recently
-- modified), so that a page of a broad search walks this index and stops after `num` matches
-- instead of sorting every match (same expressions and directions as areas/items/search.ts).
CREATE INDEX items_default_order ON items (((content_status IN ('org_authoritative', 'public_authoritative'))) DESC NULLS LAST, modified DESC, id);
