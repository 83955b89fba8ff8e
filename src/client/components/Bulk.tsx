/** The two later steps of every bulk action: progress while it runs, then one result per row. */
import { Badge, Button, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { announce, textOf } from '../lib/announce.ts';
import { IconCheck, IconRefresh, IconX } from './icons.tsx';

/**
 * Takes focus when it appears if `autoFocus` (the button that started the work is gone by then:
 * without this, focus would fall to the page behind a dialog).
 */
function useFocusOnMount<T extends HTMLElement>(on: boolean | undefined) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (on) ref.current?.focus();
  }, [on]);
  return ref;
}

export function BulkProgress({ label, done, total, detail, autoFocus }: { label: string; done: number; total: number; detail?: string; autoFocus?: boolean }) {
  const percent = total ? Math.round((done / total) * 100) : 0;
  const ref = useFocusOnMount<HTMLDivElement>(autoFocus);
  return (
    <Stack gap={6} ref={ref} tabIndex={autoFocus ? -1 : undefined} aria-label={autoFocus ? label : undefined} role={autoFocus ? 'group' : undefined}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {detail ?? `${done} of ${total}`}
        </Text>
      </Group>
      <Progress value={percent} size="lg" radius="xl" animated={done < total} aria-label={label} aria-valuetext={`${done} of ${total}`} />
    </Stack>
  );
}

export interface BulkResultRow {
  key: string;
  /** What the row is about (a member, a username). */
  name: ReactNode;
  ok: boolean;
  /** The service's reason for a failure, or a note on a success. */
  detail?: ReactNode;
  /** The row's name in words, for the spoken summary (when `name` is not plain text). */
  spoken?: string;
}

export interface BulkResultTableProps {
  /** Names the table, e.g. "Role assignment results". */
  label: string;
  rows: readonly BulkResultRow[];
  nameHeader?: string;
  successLabel?: string;
  failureLabel?: string;
  /** Moves focus to the counts when the results appear. */
  autoFocus?: boolean;
}

/** Failures first (they need attention), then successes; each with the service's words. */
export function BulkResultTable({ label, rows, nameHeader = 'Name', successLabel = 'Done', failureLabel = 'Failed', autoFocus }: BulkResultTableProps) {
  const failed = rows.filter((r) => !r.ok);
  const ordered = [...failed, ...rows.filter((r) => r.ok)];
  const summary = bulkSummary(rows, successLabel, failureLabel);
  // Spoken once when the results arrive: the counts, then who failed and the service's reason.
  useEffect(() => announce(summary, failed.length ? 'assertive' : 'polite'), [summary, failed.length]);
  const countsRef = useFocusOnMount<HTMLDivElement>(autoFocus);
  return (
    <Stack gap="xs">
      <Group gap="xs" role="status" ref={countsRef} tabIndex={autoFocus ? -1 : undefined} data-testid="bulk-counts">
        <Badge color="green" variant="light" leftSection={<IconCheck size={12} />} tt="none">
          {rows.length - failed.length} {successLabel.toLowerCase()}
        </Badge>
        <Badge color={failed.length ? 'red' : 'gray'} variant="light" leftSection={<IconX size={12} />} tt="none">
          {failed.length} {failureLabel.toLowerCase()}
        </Badge>
      </Group>
      {/* A long list scrolls: the region takes focus so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <ScrollArea.Autosize mah={360} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${label}, scrollable` }}>
        <Table aria-label={label} verticalSpacing={6} striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{nameHeader}</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered.map((r) => (
              <Table.Tr key={r.key} data-ok={r.ok}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>
                  <Badge color={r.ok ? 'green' : 'red'} variant="light" tt="none" size="sm">
                    {r.ok ? successLabel : failureLabel}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={r.ok ? 'dimmed' : undefined}>
                    {r.detail ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}

const SPOKEN_FAILURES = 10;

/** "28 added, 2 not added. Not added: ann — No such user; bob — The account is disabled." */
export function bulkSummary(rows: readonly BulkResultRow[], successLabel: string, failureLabel: string): string {
  const failed = rows.filter((r) => !r.ok);
  const counts = `${rows.length - failed.length} ${successLabel.toLowerCase()}, ${failed.length} ${failureLabel.toLowerCase()}.`;
  if (!failed.length) return counts;
  const named = failed.slice(0, SPOKEN_FAILURES).map((r) => {
    const name = r.spoken ?? (textOf(r.name) || r.key);
    const why = textOf(r.detail);
    return why ? `${name} — ${why}` : name;
  });
  const more = failed.length > SPOKEN_FAILURES ? `; and ${failed.length - SPOKEN_FAILURES} more in the table` : '';
  return `${counts} ${failureLabel}: ${named.join('; ')}${more}.`;
}

/** A results footer's "Retry failed (n)": sends the failed ones again; nothing when none failed. */
export function RetryFailedButton({ count, onRetry }: { count: number; onRetry: () => void }) {
  if (!count) return null;
  return (
    <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRetry}>
      Retry failed ({count})
    </Button>
  );
}
