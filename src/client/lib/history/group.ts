/**
 * The history rows of one "Deprecate and point to a replacement" run, as one entry: the old item's
 * deprecation naming its replacement (`data.after.replacedBy`, a local extra) and the reference
 * swaps old → new the same member made in the dependents just before it. The rows carry that link
 * themselves, so no correlation id is needed; a portal that records no `replacedBy` shows the rows
 * one by one, as before.
 */
import type { HistoryEvent } from '../../../shared/contract/history.ts';
import { describeEvent, eventKey, operationOf, replacedReferencesOf, type Names } from './describe.ts';

/** One row of the list: an event alone, or a replacement run (`events`: the deprecation first, then the swaps). */
export type HistoryEntry =
  { kind: 'event'; key: string; event: HistoryEvent } | { kind: 'replacement'; key: string; event: HistoryEvent; events: HistoryEvent[] };

/** How long before the deprecation a run's swaps may have been made (a large run rewrites many dependents). */
const RUN_WINDOW_MS = 60 * 60 * 1000;

const fields = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The replacement a deprecation event names, if it is one. */
function replacementOf(e: HistoryEvent): string | undefined {
  if (operationOf(e) !== 'setContentStatus') return undefined;
  const after = fields(e.data?.after);
  return after.contentStatus === 'deprecated' && typeof after.replacedBy === 'string' && after.replacedBy ? after.replacedBy : undefined;
}

const swapsTo = (e: HistoryEvent, from: string, to: string): boolean =>
  operationOf(e) === 'updateItem' && !!replacedReferencesOf(e)?.some((s) => s.from === from && s.to === to);

/**
 * The rows in their order, a run's swaps folded into its deprecation's entry (where the deprecation
 * stands). A swap joins the earliest deprecation of the same old → new by the same member that
 * follows it within the window; a swap that belongs to none stays a row of its own.
 */
export function groupReplacements(rows: readonly HistoryEvent[]): HistoryEntry[] {
  const claimed = new Map<HistoryEvent, HistoryEvent>(); // swap → its deprecation
  const deprecations = rows.filter((e) => replacementOf(e)).sort((a, b) => a.created - b.created);
  for (const dep of deprecations) {
    const to = replacementOf(dep)!;
    for (const e of rows) {
      if (claimed.has(e) || e.actor !== dep.actor || !swapsTo(e, dep.id, to)) continue;
      if (e.created <= dep.created && dep.created - e.created <= RUN_WINDOW_MS) claimed.set(e, dep);
    }
  }
  const members = new Map<HistoryEvent, HistoryEvent[]>();
  for (const [swap, dep] of claimed) members.set(dep, [...(members.get(dep) ?? []), swap]);
  const entries: HistoryEntry[] = [];
  for (const e of rows) {
    if (claimed.has(e)) continue;
    const swaps = members.get(e);
    entries.push(swaps ? { kind: 'replacement', key: `run:${eventKey(e)}`, event: e, events: [e, ...swaps] } : { kind: 'event', key: eventKey(e), event: e });
  }
  return entries;
}

/** The events an entry stands for. */
export const entryEvents = (entry: HistoryEntry): HistoryEvent[] => (entry.kind === 'replacement' ? entry.events : [entry.event]);

/** "admin replaced 'Parks' with 'Parks 2024': 2 items now use it, 'Parks' marked deprecated". */
export function describeEntry(entry: HistoryEntry, names: Names = {}): string {
  if (entry.kind === 'event') return describeEvent(entry.event, names);
  const dep = entry.event;
  const who = dep.actor ?? 'The portal';
  const oldTitle = `'${dep.title || names.item?.(dep.id) || dep.id}'`;
  const to = replacementOf(dep)!;
  const newTitle = `'${names.item?.(to) ?? to}'`;
  const n = entry.events.length - 1;
  return `${who} replaced ${oldTitle} with ${newTitle}: ${n} item${n === 1 ? '' : 's'} now use${n === 1 ? 's' : ''} it, ${oldTitle} marked deprecated`;
}
