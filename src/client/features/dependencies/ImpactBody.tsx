/** The result of the impact check, in the words of the change: what stops working, shows a deprecated item, keeps calling an old address, or shows broken layers to whom. */
import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { ImpactChange } from '../../components/ImpactSlot.tsx';
import { gapWho } from './audience.ts';
import type { Impact, ImpactEntry } from './impact.ts';
import { ImpactEntryList } from './ImpactEntryList.tsx';
import { describeNode, plural } from './impactWords.ts';
import type { AudienceRow } from './useImpactCheck.ts';

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

export function ImpactBody({ change, result, audienceRows, urlRows, summary, groupTitle, onReplace, ownerUnknown, newOwner }: BodyProps) {
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
          <ImpactEntryList entries={result.entries} label="Items that will stop working" />
          {notes}
        </Alert>
      );
    case 'deprecate':
      return (
        <Alert color="yellow" variant="light" title="These maps and apps will show a deprecated item">
          <Stack gap="xs">
            <Text size="sm">They keep working; their owners may want to switch to a replacement.</Text>
            <ImpactEntryList entries={result.entries} label="Items that use the deprecated item" />
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
          {!audienceRows.length && ownerUnknown ? <ImpactEntryList entries={result.entries} label="Items that use it" /> : null}
          {notes}
        </Alert>
      );
  }
}
