/**
 * The job tray: uploads in parts and portal-side downloads, on every page while they last. It
 * never covers the page: closed, it is a chip in the header ("Uploads and downloads: 1 in
 * progress, 48 %"); opened from the chip, its list drops down below the header and closes on Esc
 * or a click elsewhere, under any dialog. Finished entries go by themselves a few seconds after
 * they end (jobTrayStatus.tsx); failed ones stay until dismissed.
 */
import { Button, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { IconUpload } from '../../components/icons.tsx';
import { TransferWatcher, TRAY_CHIP_ID, type TrayStatus } from './jobTrayStatus.tsx';
import { DownloadRow, UploadRow } from './JobTrayRows.tsx';
import { useTransfers, type Transfer } from './transfers.ts';

/** Below Mantine's modals (200) and their overlays: a dialog always covers the tray. */
const TRAY_Z_INDEX = 150;

/** The chip's words: what is in progress (with the share sent of a single upload), failed and added. */
export function chipWords(transfers: readonly Transfer[], statuses: ReadonlyMap<string, TrayStatus>): { text: string; short: string; color: string } {
  const known = transfers.map((t) => statuses.get(t.key) ?? { state: 'active' as const });
  const active = known.filter((s) => s.state === 'active');
  const failed = known.filter((s) => s.state === 'failed').length;
  const done = known.filter((s) => s.state === 'done').length;
  const parts: string[] = [];
  if (active.length) parts.push(`${active.length} in progress${active.length === 1 && active[0].percent !== undefined ? `, ${active[0].percent} %` : ''}`);
  if (failed) parts.push(`${failed} failed`);
  if (done) parts.push(`${done} added`);
  // On a phone the header has room for a few characters: the share sent of one upload, else how many entries.
  const short = active.length === 1 && active[0].percent !== undefined && !failed && !done ? `${active[0].percent} %` : String(known.length);
  return { text: parts.join(', '), short, color: failed ? 'red' : active.length ? 'blue' : 'teal' };
}

export function JobTray() {
  const transfers = useTransfers();
  // Open on the page it was opened on: another page (a link in the tray, any navigation) closes it.
  const { pathname } = useLocation();
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const opened = openedOn === pathname;
  const setOpened = (next: boolean | ((was: boolean) => boolean)) => setOpenedOn((typeof next === 'function' ? next(opened) : next) ? pathname : null);
  const [statuses, setStatuses] = useState<ReadonlyMap<string, TrayStatus>>(new Map());
  const onStatus = useCallback((key: string, status: TrayStatus) => {
    setStatuses((prev) => {
      const was = prev.get(key);
      if (was && was.state === status.state && was.percent === status.percent) return prev;
      return new Map(prev).set(key, status);
    });
  }, []);
  if (!transfers.length) return null;
  const { text, short, color } = chipWords(transfers, statuses);
  return (
    <div role="region" aria-label="Uploads and downloads">
      {/* Always mounted: the entries are watched (and spoken) while the tray is closed. */}
      {transfers.map((t) => (
        <TransferWatcher key={t.key} transfer={t} onStatus={onStatus} />
      ))}
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={380} shadow="lg" zIndex={TRAY_Z_INDEX} trapFocus returnFocus closeOnEscape>
        <Popover.Target>
          <Button
            id={TRAY_CHIP_ID}
            aria-label={`Uploads and downloads: ${text}`}
            variant="light"
            color={color}
            size="compact-sm"
            radius="xl"
            leftSection={<IconUpload size={14} />}
            onClick={() => setOpened((o) => !o)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && opened) setOpened(false);
            }}
          >
            {/* The words on wider screens, a few characters on a phone; the name holds both (label in name). */}
            <Text span size="xs" fw={600} visibleFrom="sm">
              {text}
            </Text>
            <Text span size="xs" fw={600} hiddenFrom="sm">
              {short}
            </Text>
          </Button>
        </Popover.Target>
        <Popover.Dropdown aria-labelledby="job-tray-title" p="sm">
          <Text fw={700} size="sm" mb="xs" id="job-tray-title">
            Uploads and downloads
          </Text>
          <ScrollArea.Autosize mah="min(360px, 60vh)">
            <Stack gap="sm">
              {transfers.map((t) => (t.kind === 'upload' ? <UploadRow key={t.key} transfer={t} /> : <DownloadRow key={t.key} transfer={t} />))}
            </Stack>
          </ScrollArea.Autosize>
          <Text size="xs" c="dimmed" mt="xs">
            Added entries close by themselves; failed ones stay until dismissed.
          </Text>
        </Popover.Dropdown>
      </Popover>
    </div>
  );
}
