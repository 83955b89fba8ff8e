-- Free-text item search (a term matches title, tags, snippet or description, as a case-insensitive
-- substring) through a trigram index instead of reading every item. pg_trgm ships with PostgreSQL
-- (contrib) and with PGlite (loaded in store/pglite.ts). An extension belongs to the database, not a
-- schema: it goes into public, and the operator class is named with its schema so that a service
-- whose search_path is another schema (one schema per test suite) finds it. Migrations on one
-- database run one at a time (store/migrate.ts holds an advisory lock), so two schemas never race
-- to create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- The four searched fields as one text; array_to_string is only STABLE, so the index needs this
-- IMMUTABLE wrapper (tags are plain text, whose output never depends on settings). The search
-- still tests each field on its own (this text is a necessary condition: whatever matches a field
-- matches it), so a term spanning two fields never matches.
CREATE FUNCTION item_search_text(title text, snippet text, description text, tags text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(title, '') || chr(10) || coalesce(snippet, '') || chr(10) || coalesce(description, '') || chr(10) || array_to_string(tags, ',') $$;

CREATE INDEX items_search_trgm ON items USING gin (item_search_text(title, snippet, description, tags) public.gin_trgm_ops);
