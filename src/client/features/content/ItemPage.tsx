/**
 * One item: its details (editable), thumbnail, data and info files (and, for the owner and
 * administrators, the service proxy URL), sharing, related items in both directions, protection,
 * folder, and the content status control.
 */
import { Anchor, Grid, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { Item } from '../../api/index.ts';
import { HistorySection, mayReadHistory } from '../../components/HistorySection.tsx';
import { IconArrowLeft } from '../../components/icons.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { useDownload } from '../../lib/download.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ContentStatusControl } from './ContentStatusControl.tsx';
import { ItemDataPanel } from './ItemDataPanel.tsx';
import { ItemDetailsForm } from './ItemDetailsForm.tsx';
import { ItemHeader } from './ItemHeader.tsx';
import { FolderCard, ThumbnailCard } from './ItemSideCards.tsx';
import { editItemPermission } from './permissions.ts';
import { canOn } from '../../lib/can.ts';
import { itemQuery, ownedItemQuery } from '../../api/queries/items.ts';
import { RelatedItemsPanel } from './RelatedItemsPanel.tsx';
import { SharingPanel } from './SharingPanel.tsx';

/**
 * A tab another feature adds to the item page. The app composes it in (app/routes/content.tsx):
 * features do not import each other.
 */
export interface ItemPageTab {
  value: string;
  label: string;
  panel: (item: Item) => ReactNode;
}

export default function ItemPage({ extraTabs = [] }: { extraTabs?: readonly ItemPageTab[] }) {
  const { itemId = '' } = useParams();
  const item = useQuery(itemQuery(itemId));
  if (item.isPending) return <LoadingState minHeight={300} />;
  if (item.isError) return <ErrorState error={item.error} title="Could not load the item" onRetry={() => item.refetch()} />;
  return <ItemView item={item.data} extraTabs={extraTabs} />;
}

function ItemView({ item: publicView, extraTabs }: { item: Item; extraTabs: readonly ItemPageTab[] }) {
  const user = useCurrentUser();
  const mine = publicView.owner.toLowerCase() === user.username.toLowerCase();
  const mayReadSharing = canOn(user, 'userItem', { orgId: publicView.orgId, owned: mine }).allowed;
  const owned = useQuery({ ...ownedItemQuery(publicView.owner, publicView.id), enabled: mayReadSharing });
  // The owner's view is the fuller one (sharing, info files); fall back to the public one.
  const item = owned.data?.item ?? publicView;
  const edit = editItemPermission(user, item);
  const download = useDownload();

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/content" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> Content
        </Group>
      </Anchor>
      <ItemHeader item={item} />

      <Tabs defaultValue="details" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">Details</Tabs.Tab>
          <Tabs.Tab value="data">Data and files</Tabs.Tab>
          <Tabs.Tab value="sharing">Sharing</Tabs.Tab>
          <Tabs.Tab value="related">Related items</Tabs.Tab>
          {extraTabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="status">Content status</Tabs.Tab>
          {mayReadHistory(user) ? <Tabs.Tab value="history">History</Tabs.Tab> : null}
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          {/* Two thirds and one third from md up; one column below (a fixed span of two columns would
              add a second, implicit column on a phone and squeeze the side cards into it). */}
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Paper withBorder p="md" radius="md">
                <ItemDetailsForm item={item} permission={edit} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Stack>
                <ThumbnailCard item={item} />
                {mine ? <FolderCard item={item} /> : null}
              </Stack>
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="data" pt="md">
          <ItemDataPanel item={item} owned={owned.data} edit={edit} mayReadSharing={mayReadSharing} download={download} />
        </Tabs.Panel>
        <Tabs.Panel value="sharing" pt="md">
          <Paper withBorder p="md" radius="md" maw={640}>
            {owned.data ? (
              <SharingPanel key={`${item.access}-${owned.data.sharing.groups.join()}`} item={item} groups={owned.data.sharing.groups} />
            ) : (
              <Text size="sm" c="dimmed">
                Only the owner and administrators see and change the item's sharing.
              </Text>
            )}
          </Paper>
        </Tabs.Panel>
        <Tabs.Panel value="related" pt="md">
          <RelatedItemsPanel item={item} />
        </Tabs.Panel>
        {extraTabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            {tab.panel(item)}
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="status" pt="md">
          <Paper withBorder p="md" radius="md" maw={640}>
            <ContentStatusControl key={item.contentStatus ?? 'none'} item={item} />
          </Paper>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <HistorySection id={item.id} type="i" name={`the item “${item.title}”`} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
