/**
 * The item page's "Data and files" tab: the item's URL, the service proxy URL (owner's view), a
 * download of its data or why there is none, replacing the data, and its info files.
 */
import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { fetchItemData, fetchItemInfoFile, type Item, type OwnedItem } from '../../api/index.ts';
import { CopyValue } from '../../components/CopyValue.tsx';
import type { Permission } from '../../lib/privileges.ts';
import type { useDownload } from '../../lib/download.ts';
import { ReplaceDataCard } from './ReplaceDataCard.tsx';

/** `download` is the page's: a download keeps its link disabled while it runs, across tab changes. */
export function ItemDataPanel({
  item,
  owned,
  edit,
  mayReadSharing,
  download,
}: {
  item: Item;
  owned: OwnedItem | undefined;
  edit: Permission;
  mayReadSharing: boolean;
  download: ReturnType<typeof useDownload>;
}) {
  return (
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
        {owned?.proxyUrl ? <ProxyUrl url={owned.proxyUrl} /> : null}
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
        {owned?.infoFiles?.length ? (
          owned.infoFiles.map((path) => (
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
