/**
 * The browser graph's records: one per item of the organization the signed-in member can see,
 * with the fields a dependency answer shows and the references the shared extractor read from the
 * item's data and URL. Kept in IndexedDB (store.ts) between visits, keyed by item id.
 */
import type { DependencyNode } from '../../../shared/contract/dependencies.ts';
import type { Item } from '../../../shared/contract/items.ts';
import { REGISTERED_APP_KEYWORD } from '../../../shared/contract/oauth.ts';
import { serviceKeyOf, type Reference, type ReferenceKind } from '../../../shared/references/references.ts';

/**
 * Bump when the extractor reads something new (as the portal's REFERENCE_INDEX_VERSION): records
 * read with an older one are read again at the next build.
 */
export const BROWSER_GRAPH_VERSION = 1;

/** A reference as kept: what the answers need (target, kind, where, as found). */
export interface StoredReference {
  kind: ReferenceKind;
  path: string;
  value: string;
  /** An item id (lower case), for references by id. */
  item?: string;
  /** A normalised URL (service root for ArcGIS services), for references by address. */
  url?: string;
}

export interface ItemRecord extends Omit<DependencyNode, 'depth'> {
  created: number;
  /** The service root the item stands for (serviceKeyOf): URL references to it resolve to this item. */
  serviceKey?: string;
  references: StoredReference[];
  /** An app registered for OAuth sign-ins (typeKeyword "Registered App"): used by its sign-ins, never unused. */
  registeredApp?: boolean;
  /** The item's data could not be read (counted and skipped): read again at the next build. */
  dataFailed?: boolean;
  /** The extractor version the references were read with. */
  version: number;
}

/** The freshness of the stored graph. */
export interface GraphMeta {
  orgId: string;
  /** When the graph was last brought up to date (epoch ms). */
  builtAt: number;
  /** Items found by the search (the organization's items the member can see). */
  itemsTotal: number;
  /** Items whose record is complete (data read, or no data needed). */
  itemsRead: number;
  /** Items whose data could not be read in the last build. */
  itemsFailed: number;
}

/** The records and freshness the answers are computed from. */
export interface GraphSnapshot {
  meta: GraphMeta;
  records: ReadonlyMap<string, ItemRecord>;
}

/** Search answer fields a record keeps (an Item as search returns it). */
export type SearchedItem = Pick<Item, 'id' | 'title' | 'type' | 'owner' | 'access' | 'url' | 'modified' | 'created'> & {
  contentStatus?: Item['contentStatus'];
  typeKeywords?: readonly string[];
  size?: number;
};

/** The node fields of an item as the search returned it. */
export function nodeFieldsOf(item: SearchedItem): Omit<ItemRecord, 'references' | 'version' | 'dataFailed'> {
  const serviceKey = serviceKeyOf(item);
  return {
    id: item.id.toLowerCase(),
    title: item.title ?? '',
    type: item.type ?? '',
    owner: item.owner ?? '',
    access: item.access,
    contentStatus: item.contentStatus ?? null,
    url: item.url ?? null,
    modified: Number(item.modified) || 0,
    created: Number(item.created) || 0,
    ...(serviceKey ? { serviceKey } : {}),
    ...(item.typeKeywords?.includes(REGISTERED_APP_KEYWORD) ? { registeredApp: true } : {}),
  };
}

/** Extractor references as kept: group references (`group`) name no item and are left out. */
export function storedReferences(references: readonly Reference[]): StoredReference[] {
  const out: StoredReference[] = [];
  for (const r of references) {
    if (r.kind === 'group') continue;
    const base = { kind: r.kind, path: r.path, value: r.value };
    if (r.target.type === 'item') out.push({ ...base, item: r.target.id });
    else out.push({ ...base, url: r.target.url });
  }
  return out;
}
