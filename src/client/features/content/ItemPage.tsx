/**
 * One item: its details (editable), thumbnail, data and info files (and, for the owner and
 * administrators, the service proxy URL), sharing, related items in both directions, protection,
 * folder, and the content status control.
 */
import { Anchor, Badge, FileInput, Grid, Group, Modal, Paper, Select, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, fetchItemData, fetchItemInfoFile, type Item } from '../../api/index.ts';
import { CopyValue } from '../../components/CopyValue.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ItemTypeIcon } from '../../components/ItemTypeIcon.tsx';
import { HistorySection, mayReadHistory } from '../../components/HistorySection.tsx';
import { IconArrowLeft, IconLock, IconTrash, IconUserPlus } from '../../components/icons.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { useDownload } from '../../lib/download.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { holds } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { transferItemsHref } from '../../lib/transfer.ts';
import { DeleteFate } from './BulkDeleteSummary.tsx';
import { ContentStatusBadge, ItemAccessBadge, ItemThumbnail } from './badges.tsx';
import { ContentStatusControl } from './ContentStatusControl.tsx';
import { ReplacedByNote } from '../../components/ReplacedByNote.tsx';
import { ItemDetailsForm } from './ItemDetailsForm.tsx';
import { useDeleteItem, useMoveItem, useProtectItem, useUpdateItem } from './mutations.ts';
import { deleteItemPermission, editItemPermission, reassignItemPermission, VIEW_ORG_ITEMS } from './permissions.ts';
import { foldersQuery, itemQuery, ownedItemQuery } from '../../api/queries/items.ts';
import { RelatedItemsPanel } from './RelatedItemsPanel.tsx';
import { ReplaceDataCard } from './ReplaceDataCard.tsx';
import { SharingPanel } from './SharingPanel.tsx';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ImpactCheckSlot } from '../../components/ImpactSlot.tsx';

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
  const mayReadSharing = mine || (user.orgId === publicView.orgId && holds(user, VIEW_ORG_ITEMS));
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
      {/* Wraps in narrow windows (320 px, 200 % zoom): the actions go below the title instead of past the edge. */}
      <Group align="flex-start" gap="lg" wrap="wrap">
        <ItemThumbnail item={item} size={120} />
        <Stack gap={4} style={{ flex: '1 1 12rem', minWidth: 0 }}>
          <Group gap="xs">
            <Title order={1} size="h2">
              {item.title}
            </Title>
            <ContentStatusBadge status={item.contentStatus} />
            <ReplacedByNote item={item} />
            {item.protected ? (
              <Badge color="gray" variant="light" leftSection={<IconLock size={12} />} tt="none">
                Delete protected
              </Badge>
            ) : null}
          </Group>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <Text c="dimmed" size="sm" component="span" style={{ display: 'flex', paddingTop: 2 }}>
              <ItemTypeIcon type={item.type} />
            </Text>
            <Text c="dimmed" size="sm">
              {item.type} · owned by <b>{item.owner}</b> · changed {formatDateTime(item.modified)} · {sizeOrSource(item)}
            </Text>
          </Group>
          <CopyValue inline label="Item ID" value={item.id} copyLabel="Copy item ID" />
          <Group gap="xs">
            <ItemAccessBadge access={item.access} />
            {item.tags.map((t) => (
              // Free text: a long tag is cut with an ellipsis inside the header instead of running off it.
              <Badge
                key={t}
                variant="outline"
                color="gray"
                tt="none"
                maw="100%"
                title={t}
                styles={{ root: { overflow: 'hidden' }, label: { overflow: 'hidden' } }}
              >
                {t}
              </Badge>
            ))}
          </Group>
        </Stack>
        <ItemActions item={item} />
      </Group>

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
          <Paper withBorder p="md" radius="md">
            <Stack gap="xs">
              {item.url ? (
                <Text size="sm">
                  URL:{' '}
                  <Anchor href={item.url} target="_blank" rel="noreferrer">
                    {item.url}
                  </Anchor>
                </Text>
              ) : null}
              {owned.data?.proxyUrl ? <ProxyUrl url={owned.data.proxyUrl} /> : null}
              {item.size ? (
                <Text size="sm">
                  <Anchor
                    component="button"
                    type="button"
                    disabled={download.pending === 'data'}
                    onClick={() => download.start('data', () => fetchItemData(item.id), item.name || `${item.id}-data`)}
                  >
                    Download the data{item.name ? ` (${item.name})` : ''}
                  </Anchor>
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  {item.url ? 'The item points to the URL above; it has no data of its own.' : 'The item has no data of its own.'}
                </Text>
              )}
              {item.name && !item.url && edit.allowed ? <ReplaceDataCard item={item} /> : null}
              <Text fw={600} size="sm" mt="sm">
                Info files
              </Text>
              {owned.data?.infoFiles?.length ? (
                owned.data.infoFiles.map((path) => (
                  <Anchor
                    key={path}
                    component="button"
                    type="button"
                    size="sm"
                    ff="monospace"
                    ta="left"
                    disabled={download.pending === `info:${path}`}
                    onClick={() => download.start(`info:${path}`, () => fetchItemInfoFile(item.id, path), path.split('/').pop() || 'info')}
                  >
                    {path}
                  </Anchor>
                ))
              ) : (
                <Text size="sm" c="dimmed">
                  {mayReadSharing ? 'None. Packages with an esriinfo folder bring their own.' : 'Only the owner and administrators see the info files.'}
                </Text>
              )}
            </Stack>
          </Paper>
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

function ItemActions({ item }: { item: Item }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const protect = useProtectItem(item.owner, item.id);
  const remove = useDeleteItem();
  const [confirming, setConfirming] = useState(false);
  const edit = editItemPermission(user, item);
  const del = deleteItemPermission(user, item);
  const reassign = reassignItemPermission(user, item);
  return (
    <Stack gap="xs" align="flex-end">
      <Switch
        label="Delete protection"
        checked={item.protected}
        disabled={!edit.allowed || protect.isPending}
        onChange={(e) =>
          protect.mutate(e.currentTarget.checked, {
            onError: (err) => notifications.show({ color: 'red', title: 'Protection not changed', message: describeError(err) }),
          })
        }
      />
      {/* The transfer wizard, with this item ticked: it checks the new owner before anything moves. */}
      <GuardedButton
        permission={reassign}
        variant="default"
        leftSection={<IconUserPlus size={16} />}
        onClick={() => void navigate(transferItemsHref(item.owner, [item.id]))}
      >
        Change owner
      </GuardedButton>
      <GuardedButton permission={del} color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
        Delete item
      </GuardedButton>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Delete “${item.title}”?`} size="lg" centered>
        <DialogLayout>
          <DialogScroll>
            <DeleteFate />
            {confirming ? <ImpactCheckSlot items={[item]} change={{ kind: 'delete' }} /> : null}
          </DialogScroll>
          <ConfirmActions
            onCancel={() => setConfirming(false)}
            confirmLabel="Delete"
            loading={remove.isPending}
            onConfirm={() =>
              remove.mutate(
                { owner: item.owner, itemId: item.id },
                {
                  onSuccess: () => {
                    notifications.show({ color: 'green', title: 'Item deleted', message: `“${item.title}” was deleted.` });
                    void navigate('/content');
                  },
                  onError: (err) => {
                    setConfirming(false);
                    notifications.show({ color: 'red', title: 'The item was not deleted', message: describeError(err) });
                  },
                },
              )
            }
          />
        </DialogLayout>
      </Modal>
    </Stack>
  );
}

/**
 * The service proxy's URL (only in the owner's view, so only the owner and administrators see
 * it): what apps use instead of the secured service's own URL, the stored credentials staying here.
 */
function ProxyUrl({ url }: { url: string }) {
  return (
    <Stack gap={4}>
      <CopyValue label="Proxy URL" value={url} copyLabel="Copy proxy URL" />
      <Text size="xs" c="dimmed">
        Apps use this URL instead of the service&apos;s own: the portal forwards with the stored credentials, within the proxy&apos;s rate limit and referrers.
      </Text>
    </Stack>
  );
}

function ThumbnailCard({ item }: { item: Item }) {
  const user = useCurrentUser();
  const update = useUpdateItem(item.owner, item.id);
  const edit = editItemPermission(user, item);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Thumbnail
        </Text>
        <ItemThumbnail item={item} size={200} />
        <FileInput
          label="Change the thumbnail"
          placeholder="PNG, JPEG, GIF or WebP"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={!edit.allowed || update.isPending}
          description={edit.allowed ? undefined : edit.reason}
          value={null}
          onChange={(file) =>
            file &&
            update.mutate(
              { thumbnail: file },
              {
                onSuccess: () => notifications.show({ color: 'green', title: 'Thumbnail changed', message: `The thumbnail of “${item.title}” was changed.` }),
                onError: (err) => notifications.show({ color: 'red', title: 'Thumbnail not changed', message: describeError(err) }),
              },
            )
          }
        />
      </Stack>
    </Paper>
  );
}

function FolderCard({ item }: { item: Item }) {
  const user = useCurrentUser();
  const folders = useQuery(foldersQuery(user.username));
  const move = useMoveItem(item.owner, item.id);
  return (
    <Paper withBorder p="md" radius="md">
      <Select
        label="Folder"
        data={[{ value: '/', label: 'Root folder' }, ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.title }))]}
        value={item.ownerFolder ?? '/'}
        allowDeselect={false}
        disabled={move.isPending}
        onChange={(v) =>
          v &&
          move.mutate(v, {
            onSuccess: () => notifications.show({ color: 'green', title: 'Item moved', message: `“${item.title}” was moved.` }),
            onError: (err) => notifications.show({ color: 'red', title: 'The item was not moved', message: describeError(err) }),
          })
        }
      />
    </Paper>
  );
}

/** What the header says after the date: the data's size, where a URL item points, or that there is nothing. */
function sizeOrSource(item: Item): string {
  if (item.size) return formatBytes(item.size);
  if (item.url) {
    try {
      return `links to ${new URL(item.url).host}`;
    } catch {
      return 'links to a URL';
    }
  }
  return 'no data';
}
