/**
 * What a risky change breaks, said in the change's own confirm step (delete, deprecate, transfer,
 * narrower sharing, a service item's new URL), from the dependents' answers (useImpact: the
 * portal's index, or the graph this browser built). It never blocks the change: while it checks,
 * and when the check fails, the confirm button stays usable and the words say so. The result is
 * announced.
 */
import { Alert, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { describeError } from '../../api/index.ts';
import type { ImpactChange, ImpactCheckProps } from '../../components/ImpactSlot.tsx';
import { announce } from '../../lib/announce.ts';
import { ITEM_ACCESS_LABELS, type ItemAccessLevel } from '../../lib/itemAccess.ts';
import { accessAfterTransfer, audienceGaps, gapWho, type AudienceGap } from './audience.ts';
import { impactOf, oldUrlReferences, type Impact, type ImpactEntry } from './impact.ts';
import { useSharingGroups } from './ImpactCheckGroups.ts';
import { useImpact } from './queries.ts';
import { TransferUsesCheck } from './TransferUsesCheck.tsx';
import { RegisteredAppWarning } from './RegisteredAppWarning.tsx';
import { userQuery } from '../../api/queries/users.ts';

export type { ImpactCheckProps };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const hiddenWords = (n: number) => (n ? ` and ${plural(n, 'item')} you cannot see` : '');

function describeNode(e: ImpactEntry): string {
  return `${e.node.title || e.node.id} (${e.node.type}, ${e.node.owner}, ${ITEM_ACCESS_LABELS[e.node.access] ?? e.node.access})`;
}
function usesWords(e: ImpactEntry): string {
  return e.uses.length ? `uses ${e.uses.map((u) => `'${u.title}' ${u.how}`).join('; ')}` : 'uses it through items you cannot see';
}

function EntryList({ entries, label, extra }: { entries: readonly ImpactEntry[]; label: string; extra?: (e: ImpactEntry) => ReactNode }) {
  return (
    <List size="sm" spacing={4} aria-label={label}>
      {entries.map((e) => (
        <List.Item key={e.node.id} data-testid="impact-entry">
          <Text size="sm" span fw={600}>
            {describeNode(e)}
          </Text>
          <Text size="sm" span>
            {' '}
            — {usesWords(e)}
          </Text>
          {extra?.(e)}
        </List.Item>
      ))}
    </List>
  );
}

/** Who would see broken layers, per dependent, for the items' new audiences. */
interface AudienceRow {
  entry: ImpactEntry;
  gaps: AudienceGap[];
}

export function ImpactCheck({ items, change, onReplace, groupTitle }: ImpactCheckProps) {
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

  return (
    <Stack gap="xs" data-testid="impact-check" aria-label="Impact check" role="group">
      {/* What no item's data names: the sign-ins through a registered app. */}
      {change.kind === 'delete' ? <RegisteredAppWarning items={items} /> : null}
      {impact.isError ? (
        <Alert color="orange" variant="light" title="The impact check could not be made">
          {describeError(impact.error)} You can still go ahead, but nothing was checked: items that use {subject} may break.
        </Alert>
      ) : waiting || !result ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Checking what uses {subject}…</Text>
        </Group>
      ) : (
        <ImpactBody
          change={change}
          result={result}
          audienceRows={audienceRows}
          urlRows={urlRows}
          summary={summary ?? ''}
          groupTitle={titleOfGroup}
          onReplace={onReplace}
          ownerUnknown={change.kind === 'transfer' && !privileges}
          newOwner={newOwner}
        />
      )}
      {/* The other direction: what the moved items use that the new owner cannot see. */}
      {change.kind === 'transfer' ? <TransferUsesCheck items={items} newOwner={change.newOwner} /> : null}
    </Stack>
  );
}

function summarize(change: ImpactChange, r: Impact, audienceCount: number, urlCount: number, subject: string, newOwner: string, ownerKnown: boolean): string {
  const n = r.entries.length;
  if (!n) return `Nothing that you can see uses ${subject}${hiddenWords(r.hidden)}.`;
  switch (change.kind) {
    case 'delete':
      return `${plural(n, 'item')} will stop working${hiddenWords(r.hidden)}.`;
    case 'deprecate':
      return `${plural(n, 'map or app', 'maps and apps')} will show a deprecated item${hiddenWords(r.hidden)}.`;
    case 'transfer':
      if (!ownerKnown) return `${plural(n, 'item')} use ${subject}; what ${newOwner} may share could not be read.`;
      return audienceCount
        ? `${plural(audienceCount, 'item')} will show broken layers to some of their viewers after the transfer.`
        : `${plural(n, 'item')} use ${subject}; all their viewers keep seeing it after the transfer.`;
    case 'sharing':
      return audienceCount
        ? `${plural(audienceCount, 'item')} will show broken layers to some of their viewers.`
        : `${plural(n, 'item')} use ${subject}; all their viewers keep seeing it.`;
    case 'url':
      return urlCount
        ? `${plural(urlCount, 'item')} name the old address and will keep calling it.`
        : `${plural(n, 'item')} use ${subject}; none names the old address.`;
  }
}

interface BodyProps {
  change: ImpactChange;
  result: Impact;
  audienceRows: AudienceRow[];
  urlRows: { entry: ImpactEntry; values: string[] }[];
  summary: string;
  groupTitle: (id: string) => string | undefined;
  onReplace?: () => void;
  ownerUnknown: boolean;
  newOwner: string;
}

function ImpactBody({ change, result, audienceRows, urlRows, summary, groupTitle, onReplace, ownerUnknown, newOwner }: BodyProps) {
  const notes = (
    <>
      {result.hidden ? <Text size="sm">…and {plural(result.hidden, 'item')} you cannot see.</Text> : null}
      {result.truncated ? <Text size="sm">The check stopped at its limit: there may be more.</Text> : null}
    </>
  );
  if (!result.entries.length)
    return (
      <Text size="sm" data-testid="impact-summary">
        {summary}
      </Text>
    );
  switch (change.kind) {
    case 'delete':
      return (
        <Alert color="red" variant="light" title="These will stop working">
          <EntryList entries={result.entries} label="Items that will stop working" />
          {notes}
        </Alert>
      );
    case 'deprecate':
      return (
        <Alert color="yellow" variant="light" title="These maps and apps will show a deprecated item">
          <Stack gap="xs">
            <Text size="sm">They keep working; their owners may want to switch to a replacement.</Text>
            <EntryList entries={result.entries} label="Items that use the deprecated item" />
            {notes}
            {onReplace ? (
              <Group>
                <Button size="xs" variant="light" onClick={onReplace}>
                  Deprecate and point to a replacement…
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      );
    case 'url':
      return (
        <Alert
          color={urlRows.length ? 'orange' : 'blue'}
          variant="light"
          title={urlRows.length ? 'These will keep calling the old address' : 'Items that use it'}
        >
          {urlRows.length ? (
            <List size="sm" spacing={4} aria-label="Items that name the old address">
              {urlRows.map(({ entry, values }) => (
                <List.Item key={entry.node.id} data-testid="impact-entry">
                  <Text size="sm" span fw={600}>
                    {describeNode(entry)}
                  </Text>
                  <Text size="sm" span style={{ overflowWrap: 'anywhere' }}>
                    {' '}
                    — names {values.join(', ')}
                  </Text>
                </List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm">{summary}</Text>
          )}
          {notes}
        </Alert>
      );
    case 'transfer':
    case 'sharing':
      return (
        <Alert
          color={audienceRows.length ? 'orange' : 'blue'}
          variant="light"
          title={audienceRows.length ? 'Some viewers will see broken layers' : ownerUnknown ? 'Sharing after the transfer unknown' : 'Items that use it'}
        >
          {audienceRows.length ? (
            <List size="sm" spacing={4} aria-label="Who will see broken layers">
              {audienceRows.flatMap(({ entry, gaps }) =>
                gaps.map((g) => (
                  <List.Item key={`${entry.node.id}-${g.kind}-${g.kind === 'group' ? g.groupId : ''}`} data-testid="impact-entry">
                    {gapWho(g, groupTitle)} viewing '{entry.node.title || entry.node.id}' will see a broken layer.
                  </List.Item>
                )),
              )}
            </List>
          ) : ownerUnknown ? (
            <Text size="sm">
              What {newOwner} may share could not be read. If they may not share as widely, the portal narrows the sharing and viewers of these may see broken
              layers:
            </Text>
          ) : (
            <Text size="sm">{summary}</Text>
          )}
          {!audienceRows.length && ownerUnknown ? <EntryList entries={result.entries} label="Items that use it" /> : null}
          {notes}
        </Alert>
      );
  }
}
