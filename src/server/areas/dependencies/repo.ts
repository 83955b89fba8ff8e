/**
 * All of the dependencies' SQL: the reference index (migration 020) and its state rows, the walk's
 * steps (the functions of migrations 037, 040 and 047, whose plans the connection keeps), the
 * organization view's page and totals, and the dependent-count tally (migration 024). Every
 * statement's text is the one the benchmark (bench/dependencies.bench.ts) measures: keep it as is.
 */
import type { DependencySummaryParams } from '../../../shared/contract/dependencies.ts';
import { MAX_REFERENCE_DATA_BYTES, TYPES_WITH_REFERENCES, type Reference, type ReferenceKind } from '../../../shared/references/references.ts';
import type { Db, Queryable } from '../../store/db.ts';

// ---------------------------------------------------------------- the reference index

/** An item as the indexer reads it: its data text only when its type may name items and it is not over the bound. */
export interface IndexedItemRow {
  id: string;
  org_id: string;
  type: string;
  url: string | null;
  type_keywords: string[];
  data_kind: 'none' | 'text' | 'file';
  data_text: string | null;
  data_blob: string | null;
  size: number;
}

const SELECT_INDEXED = `SELECT id, org_id, type, url, type_keywords, data_kind,
  CASE WHEN data_kind = 'text' AND type = ANY($2::text[]) AND size <= $3 THEN data_text END AS data_text,
  data_blob, size FROM items`;

const selectParams = () => [[...TYPES_WITH_REFERENCES], MAX_REFERENCE_DATA_BYTES];

/** The item as the indexer reads it (none: no such item). */
export async function itemToIndex(q: Queryable, itemId: string): Promise<IndexedItemRow | undefined> {
  const [row] = await q.query<IndexedItemRow>(`${SELECT_INDEXED} WHERE id = $1`, [itemId, ...selectParams()]);
  return row;
}

/** The items of `ids` as the indexer reads them. */
export async function itemsToIndex(q: Queryable, ids: readonly string[]): Promise<IndexedItemRow[]> {
  return q.query<IndexedItemRow>(`${SELECT_INDEXED} WHERE id = ANY($1::text[])`, [ids, ...selectParams()]);
}

export async function deleteReferencesOf(q: Queryable, itemIds: readonly string[]): Promise<void> {
  await q.query('DELETE FROM item_references WHERE item_id = ANY($1::text[])', [itemIds]);
}

/** A reference read from an item's data or URL, with the item holding it. */
export interface HeldReference {
  itemId: string;
  orgId: string;
  ref: Reference;
}

/** One row per reference, in one statement. */
export async function insertReferences(q: Queryable, refs: readonly HeldReference[]): Promise<void> {
  await q.query(
    `INSERT INTO item_references (item_id, org_id, target_item, target_url, kind, path, value)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
    [
      refs.map((r) => r.itemId),
      refs.map((r) => r.orgId),
      refs.map(({ ref }) => (ref.target.type === 'item' ? ref.target.id : null)),
      refs.map(({ ref }) => (ref.target.type === 'url' ? ref.target.url : null)),
      refs.map(({ ref }) => ref.kind),
      refs.map(({ ref }) => ref.path),
      refs.map(({ ref }) => ref.value),
    ],
  );
}

/** Marks the items indexed with extractor `version`, with their organizations and service keys (same order as `itemIds`). */
export async function upsertReferenceStates(
  q: Queryable,
  itemIds: readonly string[],
  orgIds: readonly string[],
  serviceKeys: readonly (string | null)[],
  version: number,
): Promise<void> {
  await q.query(
    // A row is added with the item (migration 020's trigger); should it be missing, its modified is the item's (migration 024).
    `INSERT INTO item_reference_state (item_id, org_id, service_key, version, modified)
     SELECT t.item_id, t.org_id, t.service_key, $4, i.modified
       FROM unnest($1::text[], $2::text[], $3::text[]) AS t (item_id, org_id, service_key) JOIN items i ON i.id = t.item_id
     ON CONFLICT (item_id) DO UPDATE SET org_id = EXCLUDED.org_id, service_key = EXCLUDED.service_key, version = EXCLUDED.version`,
    [itemIds, orgIds, serviceKeys, version],
  );
}

/** Whether any item was indexed with an extractor older than `version`: one look at the version index. */
export async function anyItemIndexedBefore(q: Queryable, version: number): Promise<boolean> {
  const pending = await q.query('SELECT 1 FROM item_reference_state WHERE version < $1 LIMIT 1', [version]);
  return pending.length > 0;
}

/**
 * Claims up to `batch` items after id `after` indexed with an extractor older than `version`, in id
 * order, skipping those another transaction holds (FOR UPDATE SKIP LOCKED).
 */
export async function claimItemsIndexedBefore(q: Queryable, after: string, version: number, batch: number): Promise<{ item_id: string }[]> {
  return q.query<{ item_id: string }>(
    `SELECT item_id FROM item_reference_state WHERE item_id > $1 AND version < $2 ORDER BY item_id LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [after, version, batch],
  );
}

// ---------------------------------------------------------------- node rows and the walk's steps

/** What a node shows and what deciding visibility reads (items/repo.ts ItemRow's columns of the same names): no description, extent or other listing columns. */
export interface NodeRow {
  id: string;
  org_id: string;
  owner_id: string;
  owner_username: string;
  title: string;
  type: string;
  url: string | null;
  access: 'private' | 'org' | 'public';
  content_status: 'org_authoritative' | 'public_authoritative' | 'deprecated' | null;
  status: 'partial' | 'processing' | 'completed' | 'failed';
  group_ids: string[];
  created: number;
  modified: number;
}

const SELECT_NODE = `
  SELECT i.id, i.org_id, i.owner_id, o.username AS owner_username, i.title, i.type, i.url, i.access, i.content_status, i.status,
         i.created, i.modified,
         ARRAY(SELECT s.group_id FROM item_shares s WHERE s.item_id = i.id) AS group_ids
    FROM items i JOIN users o ON o.id = i.owner_id`;

/** The node rows of `ids` (an id naming no item has none). */
export async function nodeRowsOf(q: Queryable, ids: readonly string[]): Promise<NodeRow[]> {
  return q.query<NodeRow>(`${SELECT_NODE} WHERE i.id = ANY($1::text[])`, [ids]);
}

/** The start's row (migration 047's dependency_walk_start): its node row, the caller's groups and the first step's columns (`stepped`: taken). */
export type WalkStartRow = NodeRow & {
  caller_groups: string[];
  step_edges: unknown[][] | null;
  step_rows: string | null;
  step_nodes: unknown[][] | null;
  stepped: boolean | null;
};

/** What the start of a walk reads: the item, who asks (null: anonymous), and the first step to take (direction null: none). */
export interface WalkStartAsk {
  itemId: string;
  userId: string | null;
  orgId: string | null;
  /** Whether the caller may see every item of their organization (the item operation's authority). */
  seesOrgItems: boolean;
  direction: 'uses' | 'usedBy' | null;
  maxRows: number;
}

/** The statement is migration 047's dependency_walk_start (a plan kept for the connection). */
export async function walkStart(q: Queryable, a: WalkStartAsk): Promise<WalkStartRow | undefined> {
  const [found] = await q.query<WalkStartRow>('SELECT * FROM dependency_walk_start($1, $2, $3, $4, $5, $6)', [
    a.itemId,
    a.userId,
    a.orgId,
    a.seesOrgItems,
    a.direction,
    a.maxRows,
  ]);
  return found;
}

/** A step's one row (migrations 040, 045): its edges and the node rows of the items it met first, one JSON array per column (null: none). */
export interface StepRow {
  /** EdgeTuple's fields by column. */
  edges: unknown[][] | null;
  /** NodeTuple's fields by column, then the dependent counts (null for what items use). */
  nodes: unknown[][] | null;
}

/** A dependents step's row (migration 047): its rows as JSON array elements, and the owners' usernames. */
export interface DependentsStepRow {
  /** Each row's EdgeTuple then HolderTuple, as one JSON array, joined by commas; null: no row taken. */
  rows: string | null;
  /** The owners' ids and usernames, one array each. */
  nodes: unknown[][] | null;
}

/** The statement is migration 047's dependency_step_into (a plan kept for the connection). */
export async function dependentsStep(
  q: Queryable,
  ids: readonly string[],
  maxRows: number,
  orgId: string | null,
  withUrl: readonly string[],
): Promise<DependentsStepRow | undefined> {
  const [row] = await q.query<DependentsStepRow>('SELECT step_rows AS rows, step_nodes AS nodes FROM dependency_step_into($1, $2, $3, $4)', [
    ids,
    maxRows,
    orgId,
    withUrl,
  ]);
  return row;
}

/** The statement is migration 040's dependency_step_out_of: it always answers one row. */
export async function usesStep(q: Queryable, ids: readonly string[], maxRows: number, known: readonly string[]): Promise<StepRow> {
  const [row] = await q.query<StepRow>('SELECT step_edges AS edges, step_nodes AS nodes FROM dependency_step_out_of($1, $2, $3)', [ids, maxRows, known]);
  return row;
}

/** A URL reference row: the holder, URL, kind, an example value and the items of the holder's organization with that service key. */
export interface UrlReferenceRow {
  from_id: string;
  url: string;
  kind: ReferenceKind;
  value: string;
  resolved: string[];
}

/** The URL references held by `ids` (at most `maxRows` read, one row per holder, URL and kind). */
export async function urlReferenceRowsOf(q: Queryable, ids: readonly string[], maxRows: number): Promise<UrlReferenceRow[]> {
  return q.query<UrlReferenceRow>(
    `SELECT r.from_id, r.url, r.kind, (array_agg(r.value ORDER BY r.path))[1] AS value,
            COALESCE((SELECT array_agg(s.item_id) FROM item_reference_state s WHERE s.org_id = r.org_id AND s.service_key = r.url), '{}') AS resolved
       FROM (SELECT item_id AS from_id, org_id, target_url AS url, kind, value, path FROM item_references
              WHERE item_id = ANY($1::text[]) AND target_url IS NOT NULL LIMIT ${maxRows}) r
      GROUP BY r.from_id, r.org_id, r.url, r.kind
      ORDER BY r.from_id, min(r.path)`,
    [ids],
  );
}

// ---------------------------------------------------------------- the tally of dependent counts (migration 024)

/** Folds the additions of `orgId` (every organization: null) into one row per count, in one statement (atomic to readers). */
export async function foldTallyRows(q: Queryable, orgId: string | null): Promise<void> {
  // Rows another writer adds meanwhile are not in this statement's snapshot: they stay, and still count.
  await q.query(
    `WITH gone AS (DELETE FROM item_dependent_tally WHERE $1::text IS NULL OR org_id = $1 RETURNING org_id, dependents, items)
     INSERT INTO item_dependent_tally (org_id, dependents, items)
     SELECT org_id, dependents, sum(items) FROM gone GROUP BY org_id, dependents HAVING sum(items) <> 0`,
    [orgId],
  );
}

/** The embedded database has no autovacuum: without it a sum would still step over every folded row's index entry. */
export async function vacuumTally(db: Db): Promise<void> {
  await db.exec('VACUUM item_dependent_tally');
}

/** How many items of `orgId` have `dependents` in [min, max] (max null: no upper bound), and how many tally rows that summed. */
export async function tallyOfDependents(q: Queryable, orgId: string, min: number, max: number | null): Promise<{ total: number; rows: number }> {
  const [first] = await q.query<{ total: number; rows: number }>(
    `SELECT COALESCE(sum(items), 0)::int AS total, count(*)::int AS rows FROM item_dependent_tally
      WHERE org_id = $1 AND dependents >= $2 AND ($3::int IS NULL OR dependents <= $3)`,
    [orgId, min, max],
  );
  return first;
}

// ---------------------------------------------------------------- the organization view (summary.ts)

/** Who may see item `a` of the caller's organization without viewItems: items/access.ts canViewItem, as search writes it (`me`: the caller's id). */
const mayView = (a: string, me: string) =>
  `(${a}.access IN ('public', 'org') OR ${a}.owner_id = ${me}
    OR EXISTS (SELECT 1 FROM item_shares vs JOIN group_members vm ON vm.group_id = vs.group_id WHERE vs.item_id = ${a}.id AND vm.user_id = ${me}))
   AND ${a}.status <> 'partial'`;

/** Item `i` is an app registered for OAuth sign-ins (oauth2/registerApp, or the console's own). */
const REGISTERED_APP = 'EXISTS (SELECT 1 FROM oauth_apps ra WHERE ra.item_id = i.id)';

/** The registered apps of organization $1 that nothing uses and are no open upload: those the unused view leaves out besides the uploads. */
const UNUSED_REGISTERED_APPS = `(SELECT count(*) FROM oauth_apps ra JOIN items i ON i.id = ra.item_id JOIN item_reference_state st ON st.item_id = i.id
   WHERE i.org_id = $1 AND i.status <> 'partial' AND st.dependents = 0)`;

/** The dependents of item `i` (its state row `st`) the caller may see: the recount of migration 023, visible ones only. */
const visibleDependents = (me: string) => `(SELECT count(*)::int FROM (
    SELECT r.item_id AS d FROM item_references r WHERE r.target_item = i.id AND r.org_id = i.org_id
    UNION SELECT r.item_id FROM item_references r WHERE st.service_key IS NOT NULL AND r.org_id = st.org_id AND r.target_url = st.service_key
    UNION SELECT l.origin_id FROM relationships l WHERE l.destination_id = i.id
  ) x JOIN items di ON di.id = x.d WHERE di.id <> i.id AND di.org_id = i.org_id AND ${mayView('di', me)})`;

/**
 * How many items page row `p` uses: distinct items named by id (the references folded per target,
 * migration 039), by a service key of its organization, or as a relationship's destination.
 */
const USES = `(SELECT count(DISTINCT u.to_id)::int FROM (
    SELECT t.id AS to_id FROM item_reference_edges r JOIN items t ON t.id = r.target_item WHERE r.item_id = p.id
    UNION ALL SELECT s.item_id FROM item_reference_edges r JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
               WHERE r.item_id = p.id AND r.target_url IS NOT NULL
    UNION ALL SELECT l.destination_id FROM relationships l WHERE l.origin_id = p.id
  ) u WHERE u.to_id <> p.id)`;

/** What a page of the organization view asks: the organization, whose counts (`viewerId` null: every dependent, else those that caller may see), and the request's filters and page. */
export interface SummaryAsk {
  orgId: string;
  viewerId: string | null;
  p: DependencySummaryParams;
}

/** A page row: the item's node row, its dependents (as counted for the caller) and how many items it uses. */
export type SummaryPageRow = NodeRow & { n: number; uses: number };

/** The view's conditions and the parameters they bind, the page's start and size not yet bound. */
function summaryConditions({ orgId, viewerId, p }: SummaryAsk) {
  const seesAll = viewerId === null;
  // Only what the statement uses is bound: PostgreSQL refuses a parameter it cannot type.
  const params: unknown[] = [orgId];
  const bind = (v: unknown) => `$${params.push(v)}`;
  const me = seesAll ? '' : bind(viewerId);
  // With viewItems every item of the organization is visible: only an open upload is not listed.
  // The state row's organization is the item's: named, so its indexes (migrations 023, 024) serve the view.
  const where = ['i.org_id = $1', 'st.org_id = $1', seesAll ? `i.status <> 'partial'` : mayView('i', me)];
  if (p.owners?.length)
    where.push(
      `i.owner_id IN (SELECT u.id FROM users u WHERE u.org_id = $1 AND lower(u.username) = ANY(${bind(p.owners.map((o) => o.toLowerCase()))}::text[]))`,
    );
  if (p.types?.length) where.push(`i.type = ANY(${bind(p.types)}::text[])`);
  if (p.modifiedBefore !== undefined) where.push(`i.modified < ${bind(p.modifiedBefore)}`);
  // The count this caller may know: all of them (viewItems, or their own item), or those they may see.
  const n = seesAll ? 'st.dependents' : `CASE WHEN i.owner_id = ${me} THEN st.dependents ELSE ${visibleDependents(me)} END`;
  let filter: string;
  let order: string;
  if (p.view === 'unused') {
    // No dependent at all has none visible either: the stored count decides most rows without a recount.
    // A registered app is used by its sign-ins, which no item's data names: never a clean-up candidate.
    filter = `${seesAll ? 'st.dependents = 0' : `(st.dependents = 0 OR (i.owner_id <> ${me} AND ${visibleDependents(me)} = 0))`} AND NOT ${REGISTERED_APP}`;
    // The state row's copy of modified (migration 024): with viewItems, a scan of its index of unused items.
    order = 'st.modified, st.item_id';
  } else {
    const min = bind(p.minDependents);
    // Visible dependents are some of all: the stored count rules out most rows first.
    filter = seesAll ? `st.dependents >= ${min}` : `st.dependents >= ${min} AND ${n} >= ${min}`;
    order = seesAll ? 'st.dependents DESC, st.item_id' : 'n DESC, i.id';
  }
  const from = `FROM items i JOIN item_reference_state st ON st.item_id = i.id WHERE ${where.join(' AND ')} AND ${filter}`;
  return { params, bind, n, filter, order, from };
}

/**
 * The page, its node rows and what each uses in one statement: as three, the planning and the
 * round trips of the two lookups took about as long as finding the page.
 */
export async function summaryPage(q: Queryable, ask: SummaryAsk): Promise<SummaryPageRow[]> {
  const { params, bind, n, order, from } = summaryConditions(ask);
  return q.query<SummaryPageRow>(
    `WITH page AS MATERIALIZED (SELECT i.id, ${n} AS n ${from} ORDER BY ${order} OFFSET ${bind(ask.p.start - 1)} LIMIT ${bind(ask.p.num)}),
     ordered AS (SELECT page.*, row_number() OVER () AS ord FROM page)
     SELECT node.*, p.n, ${USES} AS uses FROM ordered p JOIN LATERAL (${SELECT_NODE} WHERE i.id = p.id) node ON true ORDER BY p.ord`,
    params,
  );
}

/** How many items the view lists, counted row by row. */
export async function summaryCount(q: Queryable, ask: SummaryAsk): Promise<number> {
  const { params, from } = summaryConditions(ask);
  return (await q.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params))[0].n;
}

/**
 * What the organization's tally counts that the view (unfiltered, with viewItems) does not list:
 * its open uploads with the view's counts and, for the unused view, its registered apps nothing uses.
 */
export async function summaryUnlistedInTally(q: Queryable, ask: SummaryAsk): Promise<number> {
  const { params, filter } = summaryConditions(ask);
  const unused = ask.p.view === 'unused';
  return (
    await q.query<{ n: number }>(
      // The unused view's registered apps are counted from oauth_apps (a few rows): tested on every
      // unused item of the organization, the EXISTS made this total most of the answer's time.
      `SELECT ((SELECT count(*) FROM items i JOIN item_reference_state st ON st.item_id = i.id
                     WHERE i.org_id = $1 AND i.status = 'partial' AND ${unused ? 'st.dependents = 0' : filter})
                 + ${unused ? UNUSED_REGISTERED_APPS : '0'})::int AS n`,
      params,
    )
  )[0].n;
}
