/**
 * Brings the browser graph up to date: pages through the organization's items the member can see
 * (the public Search operation, `orgid:<orgId>`, 100 at a time), reads the data of items whose
 * type the extractor reads (4 requests at a time) only when the item is new or its `modified`
 * changed (or its data failed last time), keeps the rest as stored, drops items no longer found,
 * and writes the changes to IndexedDB. One item's data failing is counted and skipped: the build
 * goes on. An abort (the last page using it went away) stops it; what was read so far is kept.
 */
import { fetchItemData, searchItems, type ItemSearchResult } from '../../api/index.ts';
import { MAX_REFERENCE_DATA_BYTES, scanReferences, TYPES_WITH_REFERENCES } from '../../../shared/references/references.ts';
import { BROWSER_GRAPH_VERSION, nodeFieldsOf, storedReferences, type GraphSnapshot, type ItemRecord, type SearchedItem } from './records.ts';
import type { GraphStore } from './store.ts';

/** Search's largest page. */
export const SEARCH_PAGE_SIZE = 100;
/** Item data requests in flight at once: enough to be quick, few enough not to crowd the portal. */
export const DATA_CONCURRENCY = 4;

export interface BuildProgress {
  /** Items accounted for: unchanged ones at once, the others when their data is read (or failed). */
  read: number;
  /** Items the search found. */
  total: number;
}

/** The requests a build makes; the API module's by default (tests may count them). */
export interface GraphSource {
  search(params: { q: string; start: number; num: number; sortField: 'created'; sortOrder: 'asc' }, signal?: AbortSignal): Promise<ItemSearchResult>;
  itemData(itemId: string, signal?: AbortSignal): Promise<unknown>;
}

export const apiGraphSource: GraphSource = {
  search: (params, signal) => searchItems(params, { signal }),
  async itemData(itemId, signal) {
    const file = await fetchItemData(itemId, { signal });
    if (file.blob.size > MAX_REFERENCE_DATA_BYTES) throw new Error(`The data of ${itemId} is larger than ${MAX_REFERENCE_DATA_BYTES} bytes.`);
    const text = await file.blob.text();
    return text.trim() ? (JSON.parse(text) as unknown) : undefined;
  },
};

export interface BuildOptions {
  orgId: string;
  store: GraphStore;
  /** The graph as last known (in memory or read from the store); read from the store when absent. */
  previous?: GraphSnapshot;
  source?: GraphSource;
  signal?: AbortSignal;
  onProgress?(progress: BuildProgress): void;
  now?(): number;
}

export async function buildGraph(options: BuildOptions): Promise<GraphSnapshot> {
  const { orgId, store, signal } = options;
  const source = options.source ?? apiGraphSource;
  const stored = options.previous ?? (await store.read());
  // Another organization's records (the member moved) are none of this one's.
  const previous = stored && stored.meta.orgId === orgId ? stored.records : new Map<string, ItemRecord>();

  const found = await searchAll(source, orgId, signal, (total) => options.onProgress?.({ read: 0, total }));
  const records = new Map<string, ItemRecord>();
  const changed: ItemRecord[] = [];
  const toRead: SearchedItem[] = [];
  for (const item of found) {
    const fields = nodeFieldsOf(item);
    const before = previous.get(fields.id);
    if (before && !needsData(before, fields.modified)) {
      const record: ItemRecord = { ...before, ...fields };
      records.set(record.id, record);
      if (!sameFields(before, record)) changed.push(record);
    } else toRead.push(item);
  }
  let read = records.size;
  const total = found.length;
  options.onProgress?.({ read, total });

  let failed = 0;
  try {
    await eachLimited(toRead, DATA_CONCURRENCY, signal, async (item) => {
      const record = await readRecord(source, item, previous.get(item.id.toLowerCase()), signal);
      if (record.dataFailed) failed++;
      records.set(record.id, record);
      changed.push(record);
      options.onProgress?.({ read: ++read, total });
    });
  } catch (err) {
    // Aborted: keep what was read (the stored `modified` lets the next build skip it), not the meta.
    if (changed.length && stored) await store.write({ changed, removed: [], meta: stored.meta }).catch(() => undefined);
    throw err;
  }

  const removed = [...previous.keys()].filter((id) => !records.has(id));
  const meta = { orgId, builtAt: (options.now ?? Date.now)(), itemsTotal: total, itemsRead: total - failed, itemsFailed: failed };
  const staleOrg = stored && stored.meta.orgId !== orgId ? [...stored.records.keys()].filter((id) => !records.has(id)) : [];
  await store.write({ changed, removed: [...removed, ...staleOrg], meta });
  return { meta, records };
}

function needsData(record: ItemRecord, modified: number): boolean {
  return record.modified !== modified || record.dataFailed === true || record.version !== BROWSER_GRAPH_VERSION;
}

const FIELDS = ['title', 'type', 'owner', 'access', 'contentStatus', 'url', 'modified', 'created', 'serviceKey'] as const;
const sameFields = (a: ItemRecord, b: ItemRecord) => FIELDS.every((f) => a[f] === b[f]);

/** Every item of the organization the member can see, oldest first (new items land on the last page). */
async function searchAll(source: GraphSource, orgId: string, signal: AbortSignal | undefined, onTotal: (total: number) => void): Promise<SearchedItem[]> {
  const seen = new Map<string, SearchedItem>();
  let start = 1;
  for (;;) {
    signal?.throwIfAborted();
    const page = await source.search({ q: `orgid:${orgId}`, start, num: SEARCH_PAGE_SIZE, sortField: 'created', sortOrder: 'asc' }, signal);
    // An item moved between pages while paging is met twice: once is enough.
    for (const item of page.results) seen.set(item.id.toLowerCase(), item);
    if (start === 1) onTotal(page.total);
    if (page.nextStart === undefined || page.nextStart <= start || page.nextStart < 0 || !page.results.length) return [...seen.values()];
    start = page.nextStart;
  }
}

/** One item's record: its data read when its type has references there; on failure the previous references stand, marked to read again. */
async function readRecord(source: GraphSource, item: SearchedItem, before: ItemRecord | undefined, signal?: AbortSignal): Promise<ItemRecord> {
  const fields = nodeFieldsOf(item);
  let data: unknown;
  let dataFailed = false;
  if (TYPES_WITH_REFERENCES.has(item.type)) {
    try {
      if (item.size !== undefined && item.size > MAX_REFERENCE_DATA_BYTES) throw new Error('too large');
      data = await source.itemData(item.id, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      dataFailed = true;
    }
  }
  const references = dataFailed && before ? before.references : storedReferences(scanReferences({ ...item, typeKeywords: item.typeKeywords }, data).references);
  return { ...fields, references, version: BROWSER_GRAPH_VERSION, ...(dataFailed ? { dataFailed } : {}) };
}

/** Runs `task` over `items` with at most `limit` in flight; stops at the first rejection (an abort). */
async function eachLimited<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await task(items[next++]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
