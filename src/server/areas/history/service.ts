/** Reading the organization's history (docs/history.md): who may, the filters, pages and CSV. */
import { Readable } from 'node:stream';
import {
  HISTORY_ACTIONS,
  HISTORY_CSV_COLUMNS,
  HISTORY_ID_TYPES,
  HISTORY_LIMITS,
  HISTORY_OPERATIONS,
  type HistoryEvent,
  type HistoryIdType,
  type HistoryParams,
  type HistoryResponse,
} from '../../../shared/contract/history.ts';
import type { PortalContext } from '../../context.ts';
import { orgTarget } from '../../http/target.ts';
import { csvCell } from '../../http/csv.ts';
import { badParam } from '../../http/errors.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { existingMembers, historyCsvPage, historyPage, memberSpelling, type HistoryFilter, type HistoryRow } from './repo.ts';

/** The organization in the path (`self` is the caller's own), decided with HISTORY_READ_OPERATIONS.history by operation() before the history is read. */
export const HISTORY_ORG = orgTarget({ otherOrg: "Another organization's history cannot be read." }, { self: true });

const ID_TYPES: ReadonlySet<string> = new Set(HISTORY_ID_TYPES);
const ACTION_NAMES: ReadonlySet<string> = new Set([...HISTORY_ACTIONS, ...HISTORY_OPERATIONS]);

/** The parameters checked and turned into a filter (every bad value named, never a 500). */
async function filterOf(portal: PortalContext, orgId: string, p: HistoryParams): Promise<HistoryFilter> {
  const unknownType = p.types?.find((t) => !ID_TYPES.has(t));
  if (unknownType !== undefined) throw badParam('types', `has an unknown target type '${unknownType}' (known: ${HISTORY_ID_TYPES.join(', ')})`);
  const unknownAction = p.actions?.find((a) => !ACTION_NAMES.has(a));
  if (unknownAction !== undefined)
    throw badParam('actions', `has an unknown action '${unknownAction}' (known: ${HISTORY_ACTIONS.join(', ')}, or an operation name)`);
  if (p.fromDate !== undefined && p.toDate !== undefined && p.fromDate > p.toDate) throw badParam('fromDate', 'must not be after toDate');
  let actors = p.actors;
  if (actors?.length) {
    const known = await existingMembers(portal.db, orgId, actors);
    const stranger = actors.find((a) => !known.has(a.toLowerCase()));
    if (stranger !== undefined) throw badParam('actors', `names '${stranger}', who is not a member of this organization`);
    // Stored usernames keep their case; match them whatever case was sent.
    const byLower = new Map([...known].map((u) => [u, u]));
    actors = actors.map((a) => byLower.get(a.toLowerCase()) ?? a);
  }
  // A username given as `id` in another case: the member's events are stored under its own spelling.
  let id = p.id || undefined;
  if (id) id = (await memberSpelling(portal.db, orgId, id)) ?? id;
  const types: HistoryIdType[] | undefined = p.types?.length ? (p.types as HistoryIdType[]) : !p.all && p.id === undefined ? ['a'] : undefined;
  return {
    orgId,
    id,
    types,
    actors,
    owners: p.owners?.length ? p.owners : undefined,
    actions: p.actions?.length ? p.actions : undefined,
    fromDate: p.fromDate,
    toDate: p.toDate,
    order: p.sortOrder,
  };
}

function numOf(p: HistoryParams, max: number): number {
  const num = p.num ?? HISTORY_LIMITS.defaultNum;
  if (!Number.isSafeInteger(num) || num < 1 || num > max) throw badParam('num', `must be between 1 and ${max}`);
  return num;
}

export function toHistoryEvent(r: HistoryRow): HistoryEvent {
  return {
    id: r.subject_id,
    idType: r.id_type,
    action: r.action as HistoryEvent['action'],
    actor: r.username,
    created: Number(r.created),
    orgId: r.org_id,
    ...(r.owner ? { owner: r.owner } : {}),
    ...(r.title ? { title: r.title } : {}),
    data: r.data ?? {},
    eventId: r.id,
    operation: r.op as HistoryEvent['operation'],
  };
}

export async function readHistory(portal: PortalContext, orgId: string, p: HistoryParams): Promise<HistoryResponse> {
  const num = numOf(p, HISTORY_LIMITS.maxNum);
  const filter = await filterOf(portal, orgId, p);
  if (p.start) filter.after = decodeCursor(p.start, p.sortOrder);
  // One more than asked tells whether another page follows.
  const rows = await historyPage(portal.db, filter, num + 1);
  const page = rows.slice(0, num);
  const last = page.at(-1);
  return {
    items: page.map(toHistoryEvent),
    ...(rows.length > num && last ? { nextKey: encodeCursor({ created: Number(last.created), seq: Number(last.seq) }, p.sortOrder) } : {}),
  };
}

const CSV_BATCH = 2000;

/** The event's `data` column is JSON text; every other column is text already. */
const csvField = (v: unknown): string => csvCell(v === null || v === undefined || typeof v === 'string' ? v : JSON.stringify(v));

/** f=csv: the activity report's columns, at most `num` (≤ 10,000) events, streamed in batches. */
export async function historyCsv(portal: PortalContext, orgId: string, p: HistoryParams): Promise<Readable> {
  const total = numOf({ ...p, num: p.num ?? HISTORY_LIMITS.maxCsvNum }, HISTORY_LIMITS.maxCsvNum);
  const filter = await filterOf(portal, orgId, p);
  async function* lines(): AsyncGenerator<string> {
    yield `${HISTORY_CSV_COLUMNS.join(',')}\r\n`;
    let sent = 0;
    while (sent < total) {
      const rows = await historyCsvPage(portal.db, filter, Math.min(CSV_BATCH, total - sent));
      if (!rows.length) return;
      let chunk = '';
      for (const r of rows) {
        const fields: Record<(typeof HISTORY_CSV_COLUMNS)[number], unknown> = {
          id: r.subject_id,
          itemTitle: r.id_type === 'i' ? r.title : '',
          idType: r.id_type,
          orgId: r.org_id,
          orgName: r.org_name,
          owner: r.owner,
          ownerName: r.owner_full_name,
          actor: r.username,
          actorFullName: r.actor_full_name,
          ip: '',
          action: r.action,
          created_utc: new Date(Number(r.created)).toISOString(),
          request: '',
          reqId: '',
          clientId: '',
          data: r.data ?? {},
        };
        chunk += `${HISTORY_CSV_COLUMNS.map((c) => csvField(fields[c])).join(',')}\r\n`;
      }
      yield chunk;
      sent += rows.length;
      const last = rows.at(-1)!;
      filter.after = { created: Number(last.created), seq: Number(last.seq) };
      if (rows.length < CSV_BATCH) return;
    }
  }
  return Readable.from(lines());
}
