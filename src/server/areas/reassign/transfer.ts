/**
 * The transfer itself, in one transaction with the item rows locked (service.ts's header says what
 * moves with an item). Internal to the area: the operations in service.ts call it.
 */
import type { BlockedItem } from '../../../shared/contract/reassign.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvents, type NewEvent } from '../../store/events.ts';
import { folderNames, findFolder, type ItemRow } from '../items/service.ts';
import { hexId } from '../../store/ids.ts';
import { deactivateTasksOfItems } from '../tasks/service.ts';
import { userPrivileges, type UserRow } from '../users/service.ts';
import { blockedDetail, evaluateItems, type Evaluation } from './eligibility.ts';
import { accessOfItem, insertFolderUnlessTaken, moveItemsTo, passRelationshipsOf, setItemAccess } from './repo.ts';
import { accessOwnerMayGive, type PrivilegeHolder } from '../../http/policies.ts';

export interface Parties {
  source: UserRow;
  target: UserRow;
}

export const refusedDetails = (evaluations: Evaluation[], source: UserRow) =>
  evaluations.filter((e) => e.blockers.length).map((e) => blockedDetail(e, source.username));

export interface Moved {
  itemId: string;
  tasksDeactivated: number;
  unsharedFrom: string[];
}

export interface TransferOutcome {
  moved: Moved[];
  refused: BlockedItem[];
}

/**
 * Moves every eligible item of `itemIds` to the target in one transaction, after checking them
 * again with their rows locked; refused items stay as they are. `folderName` "/" is the root.
 */
export async function transferItems(
  ctx: PortalContext,
  caller: Caller,
  parties: Parties,
  itemIds: readonly string[],
  folderName: string,
): Promise<TransferOutcome> {
  const { source, target } = parties;
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const evaluations = await evaluateItems(q, source, target, itemIds, true);
    const refused = refusedDetails(evaluations, source);
    const rows = evaluations.filter((e) => !e.blockers.length).map((e) => e.row!);
    if (!rows.length) return { moved: [], refused };
    const folderId = await targetFolder(q, target, folderName, now);
    // History keeps where each item was, so a mistaken transfer can be undone to the same folder.
    const folders = await folderNames(q, [...rows.map((r) => r.folder_id), folderId]);
    const after = { owner: target.username, ownerFolder: folderId, folderName: folderId ? (folders.get(folderId) ?? null) : null };
    const ids = rows.map((r) => r.id);
    await moveItemsTo(q, ids, target.id, folderId, now);
    // Relationships the previous owner made pass with the item: only their creator may delete them.
    await passRelationshipsOf(q, ids, target.id, source.id);
    const newOwner = { privileges: new Set(userPrivileges(target)) };
    const actor = actorOf(caller);
    // Items are all of the source's organization: one statement deactivates their tasks.
    const tasksOf = await deactivateTasksOfItems(q, source.org_id, ids, { now });
    const moved: Moved[] = [];
    const events: NewEvent[] = [];
    for (const row of rows) {
      const unsharedFrom = await narrowAccess(q, row, newOwner, now);
      if (unsharedFrom.length) {
        const data = {
          before: { access: row.access },
          after: { access: await accessOfItem(q, row.id) },
          groups: unsharedFrom,
          reason: 'reassign',
        };
        events.push({
          orgId: row.org_id,
          source: 'item',
          operation: 'unshare',
          subjectId: row.id,
          actor,
          properties: { unsharedFromGroups: unsharedFrom },
          when: now,
          history: { owner: target.username, title: row.title, data },
        });
      }
      const before = { owner: source.username, ownerFolder: row.folder_id, folderName: row.folder_id ? (folders.get(row.folder_id) ?? null) : null };
      events.push({
        orgId: row.org_id,
        source: 'item',
        operation: 'reassign',
        subjectId: row.id,
        actor,
        properties: { reassignedTo: [target.username] },
        when: now,
        history: { owner: target.username, title: row.title, data: { before, after } },
      });
      moved.push({ itemId: row.id, tasksDeactivated: tasksOf.get(row.id) ?? 0, unsharedFrom });
    }
    await recordEvents(q, events);
    return { moved, refused };
  });
}

/** Organization or public access the target may not give is narrowed to what they may. */
async function narrowAccess(q: Queryable, row: ItemRow, newOwner: PrivilegeHolder, now: number): Promise<string[]> {
  const access = accessOwnerMayGive(newOwner, row.access);
  if (access === row.access) return [];
  const status = row.content_status === 'public_authoritative' ? 'org_authoritative' : row.content_status;
  await setItemAccess(q, row.id, access, status, now);
  return row.access === 'public' ? (access === 'org' ? ['Everyone'] : ['Everyone', 'Organization']) : ['Organization'];
}

/** The target's folder by id or title; "/" or empty is the root; a title not found is created. */
async function targetFolder(q: Queryable, target: UserRow, folderName: string, now: number): Promise<string | null> {
  const name = folderName.trim();
  if (!name || name === '/') return null;
  const found = await findFolder(q, target.id, name);
  if (found) return found.id;
  // Two transfers creating the same folder at once: the unique title index keeps one, both use it.
  await insertFolderUnlessTaken(q, { id: hexId(), orgId: target.org_id, ownerId: target.id, title: name, created: now });
  const created = await findFolder(q, target.id, name);
  if (!created) throw new ApiError(500, 'The target folder could not be created.', []);
  return created.id;
}
