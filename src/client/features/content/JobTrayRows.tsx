/**
 * The entries of the job tray, as the open tray lists them: an upload with its parts (failed parts
 * can be retried, the upload cancelled), a portal-side download with the job's status. What they
 * are doing is watched elsewhere (jobTrayStatus.tsx), so a closed tray still counts and speaks it.
 */
import { ActionIcon, Anchor, Badge, Button, Collapse, Group, Progress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { IconX } from '../../components/icons.tsx';
import { formatBytes } from '../../lib/format.ts';
import { itemJobQuery } from '../../api/queries/items.ts';
import { TRAY_CHIP_ID, useUploadState } from './jobTrayStatus.tsx';
import { dismissTransfer, type DownloadTransfer, type UploadTransfer } from './transfers.ts';
import type { PartState } from './upload.ts';

function Dismiss({ id, label }: { id: string; label: string }) {
  return (
    <Tooltip label="Dismiss">
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Dismiss ${label}`}
        onClick={(e) => {
          // The row goes (and the whole tray with the last one): focus moves to the next row's
          // Dismiss, else to the chip, else to the page's main region, instead of falling to the body.
          const tray = e.currentTarget.closest('[role="dialog"]');
          const next = [...(tray?.querySelectorAll<HTMLElement>('button[aria-label^="Dismiss "]') ?? [])].find((b) => b !== e.currentTarget);
          dismissTransfer(id);
          // The last entry takes the chip with it: then the page's main region.
          const last = (tray?.querySelectorAll('[data-transfer-key]').length ?? 0) <= 1;
          (next ?? (last ? null : document.getElementById(TRAY_CHIP_ID)) ?? document.getElementById('main'))?.focus();
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

export function UploadRow({ transfer }: { transfer: UploadTransfer }) {
  const { upload } = transfer;
  const s = useUploadState(upload);
  const [showParts, setShowParts] = useState(false);
  const percent = s.totalBytes ? (s.sentBytes / s.totalBytes) * 100 : 0;
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
    <Stack gap={4} data-testid="upload-row" data-transfer-key={transfer.key}>
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
      {/* Whole percents: the bar's section speaks its value ("48%"). */}
      <Progress value={Math.round(percent)} animated={active} color={failed ? 'red' : undefined} aria-label={`Upload of ${transfer.title}`} />
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

export function DownloadRow({ transfer }: { transfer: DownloadTransfer }) {
  const job = useQuery(itemJobQuery(transfer.username, transfer.itemId));
  const status = job.data?.status;
  const settled = status === 'completed' || status === 'failed' || job.isError;
  return (
    <Stack gap={4} data-testid="download-row" data-transfer-key={transfer.key}>
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
