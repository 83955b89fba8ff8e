/**
 * The browser graph in IndexedDB: one database per portal and signed-in member (so one person's
 * graph is never read for another, even in the same browser profile), with
 *   items — one ItemRecord per item, keyed by its id
 *   meta  — one GraphMeta under the key 'graph'
 * Written after each build, read at the next visit so only changed items are read again.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { GraphMeta, GraphSnapshot, ItemRecord } from './records.ts';

interface GraphDB extends DBSchema {
  items: { key: string; value: ItemRecord };
  meta: { key: 'graph'; value: GraphMeta };
}

const DB_VERSION = 1;

/** The database's name: the portal's REST URL and the username, both as the session has them. */
export function graphDatabaseName(portalUrl: string, username: string): string {
  return `portal-admin-console.dependencies|${portalUrl.replace(/\/+$/, '').toLowerCase()}|${username.toLowerCase()}`;
}

/**
 * Forgets a member's graph (signing out): titles, owners and sharing of the organization's items
 * are not left in a browser someone else may use next. Never throws: sign-out goes on regardless.
 */
export async function deleteGraphStore(portalUrl: string, username: string): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  try {
    await deleteDB(graphDatabaseName(portalUrl, username), { blocked: () => undefined });
  } catch {
    /* nothing stored, or storage unavailable: nothing to forget */
  }
}

export interface GraphStore {
  read(): Promise<GraphSnapshot | undefined>;
  /** Brings the stored graph up to date in one transaction: changed records put, removed ones deleted, meta written. */
  write(changes: { changed: readonly ItemRecord[]; removed: readonly string[]; meta: GraphMeta }): Promise<void>;
  close(): void;
}

export async function openGraphStore(portalUrl: string, username: string): Promise<GraphStore> {
  const db: IDBPDatabase<GraphDB> = await openDB<GraphDB>(graphDatabaseName(portalUrl, username), DB_VERSION, {
    upgrade(database) {
      database.createObjectStore('items', { keyPath: 'id' });
      database.createObjectStore('meta');
    },
    // Signing out deletes the database: let go of it rather than hold the deletion up.
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
    },
  });
  return {
    async read() {
      const tx = db.transaction(['items', 'meta'], 'readonly');
      const [meta, records] = await Promise.all([tx.objectStore('meta').get('graph'), tx.objectStore('items').getAll()]);
      await tx.done;
      if (!meta) return undefined;
      return { meta, records: new Map(records.map((r) => [r.id, r])) };
    },
    async write({ changed, removed, meta }) {
      const tx = db.transaction(['items', 'meta'], 'readwrite');
      const items = tx.objectStore('items');
      const writes: Promise<unknown>[] = removed.map((id) => items.delete(id));
      for (const record of changed) writes.push(items.put(record));
      writes.push(tx.objectStore('meta').put(meta, 'graph'));
      await Promise.all([...writes, tx.done]);
    },
    close: () => db.close(),
  };
}
