-- The trigram index of migration 013 without GIN's pending list. With fastupdate on (the default),
-- new index entries wait in an unsorted list until it reaches gin_pending_list_limit (4 MB) or a
-- VACUUM merges it, and every search reads that whole list. The embedded database has no
-- autovacuum, so the list stayed at up to 4 MB: with 100,000 items a selective search read 344 list
-- pages (2.5 ms of a 2.9 ms index lookup; "item 4242" 6.7 ms instead of 2.2 ms). Without it, each
-- item write updates the index at once (a bulk insert of 100,000 items took 25 s instead of 9 s);
-- items are written one at a time by people and read by every search.
ALTER INDEX items_search_trgm SET (fastupdate = off);

-- Merge what is already waiting (the setting only stops new entries from being added to it).
SELECT gin_clean_pending_list('items_search_trgm'::regclass);
