/**
 * Planning a copy of items to another organization or portal, before anything changes there:
 * what the selection needs (the layers a map uses, the map an app uses), and for each item whether
 * it is created or updated in the target, which ids inside its data are rewritten, what differs
 * from the copy already there, and what cannot be copied and why.
 *
 * An item copied before is found in the target by the type keyword `source-<source id>`, the mark
 * solution.js leaves on the items it deploys, so a second run updates instead of duplicating.
 */
import { extractReferences, TYPES_WITH_REFERENCES } from '../../../shared/references/references.ts';
import type { Item } from '../../api/index.ts';
import { mapLimited, PLAN_CONCURRENCY } from './limited.ts';
import { rewriteData } from './rewrite.ts';
import { getItem, listResources, readItemData, searchItems, type PortalConnection } from './portal.ts';
import { sharingRights } from './sharing.ts';
import { accessFor, planGroups, relationshipsAmong, type AccessPlan, type GroupPlan, type RelationshipPlan } from './travel.ts';

/** The type keyword that ties a copy to its source item. */
export const sourceKeyword = (sourceId: string) => `source-${sourceId.toLowerCase()}`;

/** How an item's data travels: JSON text (rewritten), a file (as is), a URL, or nothing. */
export type DataKind = 'text' | 'file' | 'url' | 'none';

export interface Rewrite {
  /** The id in the source item's data. */
  from: string;
  /** The id it becomes: the target copy's, or undefined when that copy is created by this run. */
  to?: string;
  title: string;
}

export interface Difference {
  field: 'title' | 'snippet' | 'tags' | 'data';
  /** In the target now. */
  before: string;
  /** After the copy. */
  after: string;
  /** Data: JSON Pointers of the values that differ (the first few). */
  paths?: string[];
}

const MAX_PATHS = 5;

/** JSON Pointers at which two JSON values differ, at most `max` of them. */
export function changedPaths(a: unknown, b: unknown, max = MAX_PATHS, at = ''): string[] {
  if (a === b) return [];
  const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return [at || '/'];
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    if (out.length >= max) break;
    out.push(...changedPaths(ra[key], rb[key], max - out.length, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  }
  return out;
}

export interface PlanStep {
  source: Item;
  action: 'create' | 'update';
  /** The copy already in the target (update). */
  existing?: Item;
  dataKind: DataKind;
  rewrites: Rewrite[];
  differences: Difference[];
  resources: number;
  thumbnail: boolean;
  access: AccessPlan;
  /** Source ids of the groups the item is shared with (each planned in CopyPlan.groups). */
  groups: string[];
  /** Relationships from this item to other copied items, recreated between the copies. */
  relationships: RelationshipPlan[];
}

export interface Blocked {
  id: string;
  title: string;
  reason: string;
}

export interface CopyPlan {
  /** In dependency order: what an item uses comes before it. */
  steps: PlanStep[];
  blocked: Blocked[];
  /** The groups the copies are shared with in the target. */
  groups: GroupPlan[];
}

export interface Need {
  item: Item;
  /** Titles of the items that use it. */
  neededBy: string[];
}

/** The item ids an item's data (or its own fields) names. */
export function referencedIds(item: Item, data: unknown): string[] {
  const ids = new Set<string>();
  for (const ref of extractReferences(item, data)) {
    if (ref.target.type === 'item' && ref.kind !== 'group' && ref.target.id !== item.id.toLowerCase()) ids.add(ref.target.id);
  }
  return [...ids];
}

const decoder = new TextDecoder();

/** JSON data of an item whose data is text; undefined for a file or no data. */
export async function readJsonData(c: PortalConnection, item: Item): Promise<unknown> {
  if (dataKindOf(item) !== 'text') return undefined;
  const file = await readItemData(c, item.id);
  if (!file) return undefined;
  try {
    return JSON.parse(decoder.decode(file.bytes));
  } catch {
    return undefined;
  }
}

/** Text data is what the references module reads (maps, apps, dashboards…), or data of an item without a file name. */
export function dataKindOf(item: Pick<Item, 'type' | 'name' | 'url'>): DataKind {
  if (TYPES_WITH_REFERENCES.has(item.type)) return 'text';
  if (item.name) return 'file';
  if (item.url) return 'url';
  return 'text';
}

/** Why an item cannot be copied with item operations, or undefined. */
export function whyNotCopyable(item: Item, source: PortalConnection): string | undefined {
  const hosted = item.typeKeywords.includes('Hosted Service');
  if (hosted)
    return "A hosted service's data lives in the source's hosting server: item operations copy the item, not the service. Publish the data in the target, then copy the maps.";
  if (item.type === 'Solution' || item.typeKeywords.includes('Template')) return 'Solution templates are deployed with solution.js, not copied.';
  if (item.orgId !== source.orgId) return 'It belongs to another organization: the copy keeps pointing at the original.';
  return undefined;
}

/**
 * What the selection needs: every item of the source organization that a selected item (or an item
 * it needs, and so on) names in its data. Items of other organizations (Esri's basemaps, say) are
 * left as references.
 */
export async function proposeNeeds(source: PortalConnection, selected: readonly Item[]): Promise<Need[]> {
  const known = new Map<string, Item>(selected.map((i) => [i.id.toLowerCase(), i]));
  const needs = new Map<string, Need>();
  let frontier = [...selected];
  while (frontier.length) {
    const next: Item[] = [];
    for (const item of frontier) {
      const data = await readJsonData(source, item);
      for (const id of referencedIds(item, data)) {
        const need = needs.get(id);
        if (need) {
          if (!need.neededBy.includes(item.title)) need.neededBy.push(item.title);
          continue;
        }
        if (known.has(id)) continue;
        const found = await getItem(source, id).catch(() => undefined);
        if (!found || found.orgId !== source.orgId) continue;
        known.set(id, found);
        needs.set(id, { item: found, neededBy: [item.title] });
        next.push(found);
      }
    }
    frontier = next;
  }
  return [...needs.values()];
}

/** The copy of a source item already in the target's organization, found by its `source-<id>` keyword. */
export async function findExisting(target: PortalConnection, sourceId: string): Promise<Item | undefined> {
  const keyword = sourceKeyword(sourceId);
  const found = await searchItems(target, `typekeywords:${keyword} AND orgid:${target.orgId}`);
  return found.find((i) => i.typeKeywords.some((k) => k.toLowerCase() === keyword));
}

/** Dependencies first (a map's layers before the map); a cycle keeps the given order. */
export function dependencyOrder<T extends { id: string }>(items: readonly T[], uses: (item: T) => readonly string[]): T[] {
  const byId = new Map(items.map((i) => [i.id.toLowerCase(), i]));
  const out: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (item: T) => {
    const key = item.id.toLowerCase();
    if (state.has(key)) return;
    state.set(key, 'visiting');
    for (const dep of uses(item)) {
      const d = byId.get(dep);
      if (d) visit(d);
    }
    state.set(key, 'done');
    out.push(item);
  };
  items.forEach(visit);
  return out;
}

const canonical = (value: unknown): string => JSON.stringify(value);

function jsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function differencesOf(source: Item, existing: Item, dataAfter: string | undefined, dataNow: string | undefined): Difference[] {
  const out: Difference[] = [];
  if (source.title !== existing.title) out.push({ field: 'title', before: existing.title, after: source.title });
  if ((source.snippet ?? '') !== (existing.snippet ?? '')) out.push({ field: 'snippet', before: existing.snippet ?? '', after: source.snippet ?? '' });
  if (source.tags.join(', ') !== existing.tags.join(', ')) out.push({ field: 'tags', before: existing.tags.join(', '), after: source.tags.join(', ') });
  if (dataAfter !== undefined && dataAfter !== dataNow) {
    const paths =
      jsonOrUndefined(dataAfter) !== undefined && jsonOrUndefined(dataNow) !== undefined
        ? changedPaths(jsonOrUndefined(dataNow), jsonOrUndefined(dataAfter))
        : undefined;
    out.push({ field: 'data', before: dataNow ?? '(none)', after: dataAfter, ...(paths ? { paths } : {}) });
  }
  return out;
}

/**
 * The plan for copying `items` (the selection and the needs the user kept) from `source` to
 * `target`. Reads both portals; changes nothing.
 */
export async function planCopy(source: PortalConnection, target: PortalConnection, items: readonly Item[]): Promise<CopyPlan> {
  const blocked: Blocked[] = [];
  const copyable = items.filter((item) => {
    const reason = whyNotCopyable(item, source);
    if (reason) blocked.push({ id: item.id, title: item.title, reason });
    return !reason;
  });
  const data = new Map<string, unknown>();
  const read = await mapLimited(copyable, PLAN_CONCURRENCY, (item) => readJsonData(source, item));
  copyable.forEach((item, i) => data.set(item.id, read[i]));
  const ids = new Set(copyable.map((i) => i.id.toLowerCase()));
  const uses = (item: Item) => referencedIds(item, data.get(item.id)).filter((id) => ids.has(id));
  const ordered = dependencyOrder(copyable, uses);

  const existing = new Map<string, Item | undefined>();
  const found = await mapLimited(ordered, PLAN_CONCURRENCY, (item) => findExisting(target, item.id));
  ordered.forEach((item, i) => existing.set(item.id.toLowerCase(), found[i]));
  const rights = await sharingRights(target);
  const { groupsOf, groups } = await planGroups(source, target, ordered, rights);
  const byId = new Map(ordered.map((i) => [i.id.toLowerCase(), i]));

  const steps = await mapLimited(ordered, PLAN_CONCURRENCY, async (item): Promise<PlanStep> => {
    const found = existing.get(item.id.toLowerCase());
    const idMap = new Map<string, string>();
    const rewrites: Rewrite[] = uses(item).map((id) => {
      const copy = existing.get(id);
      if (copy) idMap.set(id, copy.id);
      return { from: id, to: copy?.id, title: copyable.find((c) => c.id.toLowerCase() === id)?.title ?? id };
    });
    const kind = dataKindOf(item);
    const resources = (await listResources(source, item.id).catch(() => [])).length;
    let differences: Difference[] = [];
    if (found) {
      let after: string | undefined;
      let now: string | undefined;
      if (kind === 'text' && data.get(item.id) !== undefined) {
        // Ids of items this run creates are not known yet: those references differ whatever they were.
        after = canonical(rewriteData(item.type, data.get(item.id), idMap, source.portalUrl, target.portalUrl));
        const current = await readJsonData(target, found);
        now = current === undefined ? undefined : canonical(current);
      } else if (kind === 'file') {
        const [a, b] = await Promise.all([readItemData(source, item.id), readItemData(target, found.id)]);
        after = a ? `${a.bytes.length} bytes` : undefined;
        now = b ? `${b.bytes.length} bytes` : undefined;
        if (a && b && a.bytes.length === b.bytes.length && a.bytes.every((v, i) => v === b.bytes[i])) now = after;
      }
      differences = differencesOf(item, found, after, now);
    }
    return {
      source: item,
      action: found ? 'update' : 'create',
      existing: found,
      dataKind: kind,
      rewrites,
      differences,
      resources,
      thumbnail: !!item.thumbnail,
      access: accessFor(item.access, rights),
      groups: groupsOf.get(item.id) ?? [],
      relationships: await relationshipsAmong(source, item, byId),
    };
  });
  return { steps, blocked, groups };
}
