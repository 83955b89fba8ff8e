-- A dependents step reads its rows from the index alone (issue 35 item 9). Migration 047's step
-- found a target's folded rows through item_reference_edges_target_item, then read each row's
-- dependent_row from the table: one table page per row, since a target's rows lie wherever their
-- holders were written (a hot layer's ~300 rows: 296 pages; the next level's 140 targets: 139). The
-- embedded database keeps 8 MB of pages (1,024), so a benchmark that turns between five hot layers
-- found almost none of them kept and read each from the file: in turns with a primary-key read, the
-- hot layer's first step took 7.0 ms of CPU and its second 6.6 ms; with the rows in the index, 2.9
-- and 3.6 ms (a target's rows are a few adjacent index pages).
--
-- The index holds what a step reads of a row (its organization, holder, count, holder's owner and
-- dependent_row) beside its target, so the step is an index-only scan: where the visibility map says
-- a page is all-visible (PostgreSQL's autovacuum, the retention sweep's vacuum on the embedded
-- database), the table is not read. A btree entry has at most 2,704 bytes: the index holds only rows
-- whose dependent_row has at most 1,200 bytes (the ids it holds are in that text, so the whole entry
-- stays under 2,500 bytes); a longer row (a long URL, title or example) is found through a second,
-- partial index and read from the table. No other statement finds edges by their target: the old
-- index goes.
--
-- One statement per line end: the migration runner splits statements at a semicolon that ends a line.
DROP INDEX item_reference_edges_target_item;

CREATE INDEX item_reference_edges_target_rows ON item_reference_edges (target_item) INCLUDE (org_id, item_id, n, holder_owner_id, dependent_row) WHERE target_item IS NOT NULL AND octet_length(dependent_row) <= 1200;

CREATE INDEX item_reference_edges_target_long_rows ON item_reference_edges (target_item) WHERE target_item IS NOT NULL AND octet_length(dependent_row) > 1200;

-- Migration 047's rows, the folded rows of the ids read in two parts: those the index holds (most),
-- then the longer ones. Same bound (p_max_rows + 1 in all) and the same rows; the order within a
-- step is the index's, then the long rows, then URL references and relationships, as before.
CREATE OR REPLACE FUNCTION dependency_step_candidates(p_ids text[], p_max_rows integer, p_org text, p_with_url text[])
  RETURNS TABLE (from_id text, n integer, holder_owner_id text, dependent_row text) LANGUAGE sql STABLE AS $$
  SELECT u0.from_id, u0.n, u0.holder_owner_id, u0.dependent_row FROM (
                            SELECT r.item_id AS from_id, r.target_item AS to_id, r.n, r.holder_owner_id, r.dependent_row
                              FROM item_reference_edges r
                             WHERE r.target_item = ANY(ARRAY(SELECT unnest(p_ids))) AND octet_length(r.dependent_row) <= 1200 AND (p_org IS NULL OR r.org_id = p_org)
                            UNION ALL
                            SELECT r.item_id AS from_id, r.target_item AS to_id, r.n, r.holder_owner_id, r.dependent_row
                              FROM item_reference_edges r
                             WHERE r.target_item = ANY(ARRAY(SELECT unnest(p_ids))) AND octet_length(r.dependent_row) > 1200 AND (p_org IS NULL OR r.org_id = p_org)
                            UNION ALL
                            SELECT r.item_id, s.item_id, r.n, r.holder_owner_id,
                                   dependency_row(r.item_id, s.item_id, r.kind, r.n, r.example, NULL, r.org_id, r.holder_owner_id, r.holder_title, r.holder_type, r.holder_url,
                                                  r.holder_access, r.holder_content_status, r.holder_status, r.holder_created, r.holder_modified, r.holder_group_ids,
                                                  r.holder_dependents)
                              FROM unnest(p_with_url) AS f (id)
                              CROSS JOIN LATERAL (SELECT x.item_id, x.org_id, x.service_key FROM item_reference_state x
                                                   WHERE x.item_id = f.id AND x.service_key IS NOT NULL OFFSET 0) s
                              JOIN item_reference_edges r ON r.org_id = s.org_id AND r.target_url = s.service_key
                            UNION ALL
                            SELECT l.origin_id, l.destination_id, 1, o.owner_id,
                                   dependency_row(l.origin_id, l.destination_id, 'relationship', 1, chr(1), l.type, o.org_id, o.owner_id, o.title, o.type, o.url, o.access,
                                                  o.content_status, o.status, o.created, o.modified, ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = o.id),
                                                  (SELECT st.dependents FROM item_reference_state st WHERE st.item_id = o.id))
                              FROM relationships l JOIN items o ON o.id = l.origin_id
                             WHERE l.destination_id = ANY(ARRAY(SELECT unnest(p_ids))) AND (p_org IS NULL OR o.org_id = p_org)
                                                    ) u0 WHERE u0.from_id <> u0.to_id LIMIT p_max_rows + 1 $$;

-- Migration 047's step, as it is now: a database migrated while 047 read its rows in the step itself (before
-- dependency_step_candidates) steps through the candidates above too.
CREATE OR REPLACE FUNCTION dependency_step_into(p_ids text[], p_max_rows integer, p_org text, p_with_url text[])
  RETURNS TABLE (step_rows text, step_nodes json) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE v_rows text; v_owners text[]; v_sum bigint; BEGIN
  SELECT string_agg(u.dependent_row, ','), array_agg(DISTINCT u.holder_owner_id), sum(u.n) INTO v_rows, v_owners, v_sum
    FROM dependency_step_candidates(p_ids, p_max_rows, p_org, p_with_url) u; IF v_sum > p_max_rows + 1 THEN
    SELECT string_agg(b.dependent_row, ','), array_agg(DISTINCT b.holder_owner_id) INTO v_rows, v_owners
      FROM (SELECT u.dependent_row, u.holder_owner_id, sum(u.n) OVER (ROWS UNBOUNDED PRECEDING) - u.n AS before
              FROM dependency_step_candidates(p_ids, p_max_rows, p_org, p_with_url) u) b
     WHERE b.before < p_max_rows + 1; END IF; RETURN QUERY SELECT v_rows, (SELECT json_build_array(array_agg(o.id), array_agg(o.username)) FROM users o WHERE o.id = ANY(v_owners) HAVING count(*) > 0); RETURN; END $$;
