/**
 * The state of the impact check: the dependents' answers, the new owner's privileges (transfer),
 * the new audience of each changed item and who would then see broken layers, the references to
 * an old URL, and the summary, announced as the check moves on.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { describeError } from '../../api/index.ts';
import { userQuery } from '../../api/queries/users.ts';
import type { ImpactCheckProps } from '../../components/ImpactSlot.tsx';
import { announce } from '../../lib/announce.ts';
import type { ItemAccessLevel } from '../../lib/itemAccess.ts';
import { accessAfterTransfer, audienceGaps, type AudienceGap } from './audience.ts';
import { impactOf, oldUrlReferences, type Impact, type ImpactEntry } from './impact.ts';
import { useSharingGroups } from './ImpactCheckGroups.ts';
import { summarize } from './impactWords.ts';
import { useImpact } from './queries.ts';

/** Who would see broken layers, per dependent, for the items' new audiences. */
export interface AudienceRow {
  entry: ImpactEntry;
  gaps: AudienceGap[];
}

export function useImpactCheck({ items, change, groupTitle }: Pick<ImpactCheckProps, 'items' | 'change' | 'groupTitle'>) {
  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const impact = useImpact(ids);
  const result = useMemo<Impact | undefined>(() => (impact.data ? impactOf(impact.data, items) : undefined), [impact.data, items]);
  const one = items.length === 1;
  const subject = one ? 'this item' : 'these items';

  // Transfer: what the new owner may share decides the sharing the items keep.
  const newOwner = change.kind === 'transfer' ? change.newOwner : '';
  const owner = useQuery({
    ...userQuery(newOwner),
    enabled: !!newOwner,
    retry: false,
  });
  const privileges = owner.data?.privileges?.length ? owner.data.privileges : undefined;

  // The new audience of each changed item (sharing, transfer); undefined when it does not change or is unknown.
  const newAudience = useMemo(() => {
    const out = new Map<string, ItemAccessLevel>();
    for (const i of items) {
      if (change.kind === 'sharing') out.set(i.id, change.access);
      if (change.kind === 'transfer') {
        const next = accessAfterTransfer(i.access, privileges);
        if (next && next !== i.access) out.set(i.id, next);
      }
    }
    return out;
  }, [items, change, privileges]);
  const belowOrg = [...newAudience.values()].some((a) => a === 'private' || a === 'shared');
  // Groups: only for dependents shared with groups, and (transfer) the items themselves, when the new audience is below the organization.
  const needGroups = useMemo(() => {
    if (!belowOrg || !result) return [];
    const deps = result.entries.filter((e) => e.node.access === 'shared').map((e) => ({ id: e.node.id, owner: e.node.owner }));
    return change.kind === 'transfer' ? [...items.map((i) => ({ id: i.id, owner: i.owner })), ...deps] : deps;
  }, [belowOrg, result, items, change.kind]);
  const groups = useSharingGroups(needGroups, needGroups.length > 0);
  const titleOfGroup = (id: string) => groupTitle?.(id) ?? groups.data?.titles.get(id);

  const audienceRows = useMemo<AudienceRow[]>(() => {
    if (!result || !newAudience.size || (needGroups.length && groups.isPending)) return [];
    const rows: AudienceRow[] = [];
    for (const answer of impact.data ?? []) {
      const item = items.find((i) => i.id === answer.itemId);
      const access = item && newAudience.get(item.id);
      if (!item || !access) continue;
      const itemGroups = change.kind === 'sharing' ? change.groups : groups.data?.groups.get(item.id);
      for (const n of answer.items) {
        const entry = result.entries.find((e) => e.node.id === n.id);
        if (!entry) continue;
        const gaps = audienceGaps(
          { access: n.access, groups: n.access === 'shared' ? groups.data?.groups.get(n.id) : [], owner: n.owner },
          { access, groups: itemGroups, owner: item.owner },
        );
        if (gaps.length && !rows.some((r) => r.entry.node.id === n.id)) rows.push({ entry, gaps });
      }
    }
    return rows;
  }, [result, newAudience, needGroups.length, groups.isPending, groups.data, impact.data, items, change]);

  const urlRows = useMemo(() => {
    if (change.kind !== 'url' || !result) return [];
    return items.flatMap((i) => (i.url ? oldUrlReferences(result.entries, i.id, i.url, change.url) : []));
  }, [change, result, items]);

  const waiting = impact.isPending || (change.kind === 'transfer' && owner.isPending) || (needGroups.length > 0 && groups.isPending);
  const summary = result && !waiting ? summarize(change, result, audienceRows.length, urlRows.length, subject, newOwner, !!privileges) : undefined;

  useEffect(() => {
    if (impact.isError) announce(`The impact check could not be made: ${describeError(impact.error)}`, 'assertive');
  }, [impact.isError, impact.error]);
  useEffect(() => {
    if (waiting && !impact.isError) announce(`Checking what uses ${subject}…`);
  }, [waiting, impact.isError, subject]);
  useEffect(() => {
    if (summary) announce(summary);
  }, [summary]);

  return { impact, result, subject, newOwner, privileges, audienceRows, urlRows, waiting, summary, titleOfGroup };
}
