-- Copies of searched fields stored beside them, so that a search tests a column instead of computing
-- an expression for every candidate row; both added by one ALTER TABLE (one rewrite of the table).
--
-- search_text: the four fields of a free term, lower-cased. On 100,000 items the per-row test was
-- most of the cost of a broad term: counting 20,000 matches took 158 ms with item_search_text(...)
-- ILIKE, 40 ms with this column and LIKE (the service lower-cases the pattern; ILIKE is defined as
-- exactly that, both sides lower-cased, so matches are unchanged).
--
-- tags_lower: `tags:<tag>` matches a whole tag, case-insensitively, read as `tags_lower @>
-- ARRAY[lower(tag)]` through a GIN index (before, every item's tags were unnested and compared; a
-- function of the tags in the condition costs as much per row).
CREATE FUNCTION item_lower_tags(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(lower(t)), '{}') FROM unnest(tags) AS t $$;

ALTER TABLE items
  ADD COLUMN search_text text GENERATED ALWAYS AS (lower(item_search_text(title, snippet, description, tags))) STORED,
  ADD COLUMN tags_lower text[] GENERATED ALWAYS AS (item_lower_tags(tags)) STORED;

-- The trigram index moves to the column, keeping its name and migration 015's setting (no pending list).
DROP INDEX items_search_trgm;

CREATE INDEX items_search_trgm ON items USING gin (search_text public.gin_trgm_ops) WITH (fastupdate = off);

CREATE INDEX items_tags_lower ON items USING gin (tags_lower) WITH (fastupdate = off);

-- The default order of a search (no sortField: authoritative first, then the most recently
-- modified), so that a page of a broad search walks this index and stops after `num` matches
-- instead of sorting every match (same expressions and directions as areas/items/search.ts).
CREATE INDEX items_default_order ON items (((content_status IN ('org_authoritative', 'public_authoritative'))) DESC NULLS LAST, modified DESC, id);

-- `type:<type>` compares lower-cased types: an index on that expression, which also gives the
-- planner its statistics (without them it took "type:Web Map AND tags:water" for a hundred items
-- and sorted the five thousand matches instead of walking the search's order).
CREATE INDEX items_type_lower ON items (lower(type));
