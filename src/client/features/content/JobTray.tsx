/**
 * The job tray: uploads in parts and portal-side downloads, shown in a corner of every page until
 * dismissed. An upload shows each part; failed parts can be retried, the upload cancelled.
 */
import { ActionIcon, Anchor, Badge, Button, Collapse, Group, Paper, Progress, ScrollArea, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { IconX } from '../../components/icons.tsx';
import { announce } from '../../lib/announce.ts';
import { formatBytes } from '../../lib/format.ts';
import { itemJobQuery, itemKeys } from '../../api/queries/items.ts';
import { dismissTransfer, useTransfers, type DownloadTransfer, type UploadTransfer } from './transfers.ts';
import type { PartState } from './upload.ts';

export function JobTray() {
  const transfers = useTransfers();
  if (!transfers.length) return null;
  return (
    <Paper
      withBorder
      shadow="lg"
      radius="md"
      p="sm"
      w={380}
      pos="fixed"
      bottom={16}
      right={16}
      style={{ zIndex: 190 }}
      aria-label="Uploads and downloads"
      role="region"
    >
      <Text fw={700} size="sm" mb="xs">
        Uploads and downloads
      </Text>
      <ScrollArea.Autosize mah={360}>
        <Stack gap="sm">
          {transfers.map((t) => (t.kind === 'upload' ? <UploadRow key={t.key} transfer={t} /> : <DownloadRow key={t.key} transfer={t} />))}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}

function Dismiss({ id, label }: { id: string; label: string }) {
  return (
    <Tooltip label="Dismiss">
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Dismiss ${label}`}
        onClick={(e) => {
          // The row goes (and the whole tray with the last one): focus moves to the next row's
          // Dismiss, else to the page's main region, instead of falling to the body.
          const tray = e.currentTarget.closest('[role="region"]');
          const next = [...(tray?.querySelectorAll<HTMLElement>('button[aria-label^="Dismiss "]') ?? [])].find((b) => b !== e.currentTarget);
          dismissTransfer(id);
          (next ?? document.getElementById('main'))?.focus();
        }}
      >
        <IconX size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

const PART_COLORS: Record<PartState, string> = {
  waiting: 'var(--mantine-color-gray-4)',
  sending: 'var(--mantine-color-blue-5)',
  done: 'var(--mantine-color-teal-6)',
  failed: 'var(--mantine-color-red-6)',
};

function UploadRow({ transfer }: { transfer: UploadTransfer }) {
  const { upload } = transfer;
  const s = useSyncExternalStore(
    (cb) => upload.subscribe(cb),
    () => upload.current,
  );
  const queryClient = useQueryClient();
  const [showParts, setShowParts] = useState(false);
  useEffect(() => {
    if (s.phase === 'done' || s.phase === 'cancelled') void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  }, [s.phase, queryClient]);
  const percent = s.totalBytes ? (s.sentBytes / s.totalBytes) * 100 : 0;
  useUploadAnnouncements(transfer.title, s.phase, percent, s.error);
  const failed = s.parts.filter((p) => p.state === 'failed').length;
  const done = s.parts.filter((p) => p.state === 'done').length;
  const phaseLabel = {
    starting: 'Starting…',
    uploading: 'Uploading',
    'needs-retry': 'Some parts failed',
    committing: 'Finishing…',
    done: 'Added',
    failed: 'Failed',
    cancelled: 'Cancelled',
  }[s.phase];
  const active = s.phase === 'starting' || s.phase === 'uploading' || s.phase === 'committing';
  return (
    <Stack gap={4} data-testid="upload-row">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600} lineClamp={1}>
          {s.phase === 'done' && s.itemId ? (
            <Anchor component={Link} to={`/content/items/${s.itemId}`}>
              {transfer.title}
            </Anchor>
          ) : (
            transfer.title
          )}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Badge size="sm" variant="light" color={s.phase === 'done' ? 'teal' : s.phase === 'failed' || s.phase === 'needs-retry' ? 'red' : 'blue'} tt="none">
            {phaseLabel}
          </Badge>
          {!active ? <Dismiss id={transfer.key} label={transfer.title} /> : null}
        </Group>
      </Group>
      <Progress
        value={percent}
        animated={active}
        color={failed ? 'red' : undefined}
        aria-label={`Upload of ${transfer.title}`}
        aria-valuetext={`${Math.round(percent)}%`}
      />
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {formatBytes(s.sentBytes)} of {formatBytes(s.totalBytes)} · part {done} of {s.parts.length} done{failed ? ` · ${failed} failed` : ''}
        </Text>
        <Anchor component="button" type="button" size="xs" onClick={() => setShowParts((v) => !v)} aria-expanded={showParts}>
          {showParts ? 'Hide parts' : 'Show parts'}
        </Anchor>
      </Group>
      <Collapse expanded={showParts}>
        <SimpleGrid cols={16} spacing={2} verticalSpacing={2} aria-label="Parts">
          {s.parts.slice(0, 512).map((p) => (
            <Tooltip key={p.num} label={`Part ${p.num}: ${p.state}${p.error ? ` — ${p.error}` : ''} (${formatBytes(p.sent)} of ${formatBytes(p.size)})`}>
              <div
                style={{ height: 8, borderRadius: 2, background: PART_COLORS[p.state], opacity: p.state === 'sending' ? 0.5 + (p.sent / p.size) * 0.5 : 1 }}
              />
            </Tooltip>
          ))}
        </SimpleGrid>
      </Collapse>
      {s.error ? (
        <Text size="xs" c="red">
          {s.error}
        </Text>
      ) : null}
      <Group gap="xs">
        {s.phase === 'needs-retry' || (s.phase === 'failed' && s.itemId) ? (
          <Button size="compact-xs" variant="light" onClick={() => upload.retryFailed().catch(() => undefined)}>
            Retry failed parts
          </Button>
        ) : null}
        {s.phase !== 'done' && s.phase !== 'cancelled' ? (
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => void upload.cancel()}>
            Cancel upload
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

function DownloadRow({ transfer }: { transfer: DownloadTransfer }) {
  const job = useQuery(itemJobQuery(transfer.username, transfer.itemId));
  const queryClient = useQueryClient();
  const status = job.data?.status;
  useEffect(() => {
    if (status === 'completed' || status === 'failed') void queryClient.invalidateQueries({ queryKey: itemKeys.all });
  }, [status, queryClient]);
  const settled = status === 'completed' || status === 'failed' || job.isError;
  useEffect(() => {
    if (status === 'completed') announce(`Download of “${transfer.title}” finished: the item was added.`);
    else if (status === 'failed') announce(`Download of “${transfer.title}” failed: ${job.data?.statusMessage ?? 'the portal gave no reason'}.`, 'assertive');
    // Only the change of status is news; the message goes with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, transfer.title]);
  return (
    <Stack gap={4} data-testid="download-row">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600} lineClamp={1}>
          {status === 'completed' ? (
            <Anchor component={Link} to={`/content/items/${transfer.itemId}`}>
              {transfer.title}
            </Anchor>
          ) : (
            transfer.title
          )}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Badge size="sm" variant="light" color={status === 'completed' ? 'teal' : status === 'failed' || job.isError ? 'red' : 'blue'} tt="none">
            {job.isError ? 'Unknown' : status === 'completed' ? 'Added' : status === 'failed' ? 'Failed' : 'Downloading'}
          </Badge>
          {settled ? <Dismiss id={transfer.key} label={transfer.title} /> : null}
        </Group>
      </Group>
      {!settled ? <Progress value={100} animated aria-label={`Download of ${transfer.title}`} /> : null}
      <Text size="xs" c={status === 'failed' || job.isError ? 'red' : 'dimmed'} lineClamp={2}>
        {job.isError ? 'The job could not be read.' : (job.data?.statusMessage ?? `From ${transfer.source}`)}
      </Text>
    </Stack>
  );
}

const MILESTONES = [25, 50, 75];

/**
 * Speaks an upload's progress at 25, 50 and 75 % (every percent would drown everything else),
 * then how it ended. The visible line below the bar changes continuously and is not a live region.
 */
function useUploadAnnouncements(title: string, phase: string, percent: number, error: string | undefined) {
  const said = useRef({ milestone: 0, phase: '' });
  useEffect(() => {
    const reached = MILESTONES.filter((m) => percent >= m).pop() ?? 0;
    if (phase === 'uploading' && reached > said.current.milestone) {
      said.current.milestone = reached;
      announce(`Upload of “${title}”: ${reached}% sent.`);
    }
  }, [percent, phase, title]);
  useEffect(() => {
    if (phase === said.current.phase) return;
    said.current.phase = phase;
    if (phase === 'done') announce(`Upload of “${title}” finished: the item was added.`);
    else if (phase === 'failed') announce(`Upload of “${title}” failed${error ? `: ${error}` : '.'}`, 'assertive');
    else if (phase === 'needs-retry') announce(`Upload of “${title}”: some parts failed. Retry the failed parts from the tray.`, 'assertive');
    else if (phase === 'cancelled') announce(`Upload of “${title}” was cancelled.`);
  }, [phase, title, error]);
}
