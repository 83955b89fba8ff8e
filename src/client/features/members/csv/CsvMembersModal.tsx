/**
 * "Add members from a CSV file": the file is read in the browser (within a size and row cap), every
 * row is previewed with its problems, then the rows without problems are created — one createUser a
 * row, the operation Add member uses — with progress, a result per row with the portal's reason for
 * each refusal, and a retry of the refused rows.
 */
import { Alert, Button, FileInput, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError, findMembersByUsername, type PortalUser, type RoleRecord } from '../../../api/index.ts';
import { BulkProgress, BulkResultTable, RetryFailedButton } from '../../../components/Bulk.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { useFormDialog, useReportDirty } from '../../../components/useDirtyGuard.tsx';
import { IconAlert, IconUpload } from '../../../components/icons.tsx';
import { formatCount, plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useAddMembersFromCsv } from '../mutations.ts';
import { CSV_COLUMNS_NOTE, CSV_MAX_BYTES, CSV_MAX_ROWS, csvUsernames, planMembersCsv, type MemberCsvRow } from './csvPlan.ts';
import { CsvPreview } from './CsvPreview.tsx';
import { parseCsv, type ParsedCsv } from './parseCsv.ts';

export interface CsvMembersModalProps {
  opened: boolean;
  onClose: () => void;
  customRoles: readonly RoleRecord[] | undefined;
  rolesNote?: string;
}

export function CsvMembersModal({ opened, onClose, ...rest }: CsvMembersModalProps) {
  // A chosen file's preview is work to lose: Esc, the overlay, × and Cancel ask first (useFormDialog).
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title="Add members from a CSV file" size="xl" centered>
      {opened ? <CsvFlow onCancel={cancel} onDone={close} onDirtyChange={onDirtyChange} {...rest} /> : null}
    </Modal>
  );
}

interface CsvFlowProps extends Omit<CsvMembersModalProps, 'opened' | 'onClose'> {
  onCancel: () => void;
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

const LIMITS_NOTE = `At most ${CSV_MAX_ROWS} members and ${CSV_MAX_BYTES / 1024} KB a file. ${CSV_COLUMNS_NOTE}`;

type Read = { parsed: ParsedCsv; existing: Map<string, PortalUser | null> };
type Outcome = { ok: boolean; detail: string };

function CsvFlow({ onCancel, onDone, onDirtyChange, customRoles, rolesNote }: CsvFlowProps) {
  const user = useCurrentUser();
  const add = useAddMembersFromCsv(user.orgId);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [read, setRead] = useState<Read | 'reading' | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcomes, setOutcomes] = useState<Map<number, Outcome> | null>(null);
  // Changed once a file is chosen, until its rows were sent (the results then need no answer).
  useReportDirty(!!file && !outcomes, onDirtyChange);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setRead(null);
    setFileError(null);
    if (!chosen) return;
    if (chosen.size > CSV_MAX_BYTES)
      return setFileError(`${chosen.name} is ${Math.ceil(chosen.size / 1024)} KB; at most ${CSV_MAX_BYTES / 1024} KB can be read.`);
    setRead('reading');
    try {
      const parsed = parseCsv(await chosen.text());
      // Who is a member already: 25 names a search (findMembersByUsername).
      setRead({ parsed, existing: await findMembersByUsername(csvUsernames(parsed)) });
    } catch (error) {
      setRead(null);
      setFileError(`The file could not be checked: ${describeError(error)}`);
    }
  };

  const plan = read && read !== 'reading' ? planMembersCsv(read.parsed, { giver: user, customRoles, existing: read.existing }) : null;
  const rows = plan?.ok ? plan.rows : [];
  const valid = rows.filter((r) => r.params);

  const start = (toSend: MemberCsvRow[], previous?: Map<number, Outcome>) => {
    setProgress({ done: 0, total: toSend.length });
    add.mutate(
      { rows: toSend.map((r) => ({ line: r.line, params: r.params! })), onProgress: (done, total) => setProgress({ done, total }) },
      {
        onSuccess: (results) => {
          const next = new Map(previous);
          for (const o of results) next.set(o.item.line, o.ok ? { ok: true, detail: 'Added' } : { ok: false, detail: describeError(o.error) });
          setOutcomes(next);
        },
        onError: (error) => setOutcomes(new Map([...(previous ?? []), ...toSend.map((r) => [r.line, { ok: false, detail: describeError(error) }] as const)])),
        onSettled: () => setProgress(null),
      },
    );
  };

  if (progress) return <BulkProgress label="Adding members" done={progress.done} total={progress.total} autoFocus />;
  if (outcomes) {
    const failed = valid.filter((r) => outcomes.get(r.line)?.ok === false);
    return (
      <DialogLayout>
        <DialogScroll gap="md">
          <BulkResultTable
            label="Members added from the file"
            nameHeader="Member"
            successLabel="Added"
            failureLabel="Not added"
            autoFocus
            rows={valid.map((r) => ({
              key: String(r.line),
              name: `${r.username} (line ${r.line})`,
              ok: !!outcomes.get(r.line)?.ok,
              detail: outcomes.get(r.line)?.detail,
            }))}
          />
        </DialogScroll>
        <DialogFooter>
          <RetryFailedButton count={failed.length} onRetry={() => start(failed, outcomes)} />
          <Button onClick={onDone}>Done</Button>
        </DialogFooter>
      </DialogLayout>
    );
  }

  const error = fileError ?? (plan && !plan.ok ? plan.error : null);
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <FileInput
          label="CSV file"
          description={LIMITS_NOTE}
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
          value={file}
          onChange={(f) => void choose(f)}
          leftSection={<IconUpload size={16} />}
          error={error ?? undefined}
          data-autofocus
        />
        {rolesNote ? (
          <Text size="xs" c="dimmed">
            {rolesNote}
          </Text>
        ) : null}
        {read === 'reading' ? <BulkProgress label="Checking the file" done={0} total={1} detail="Looking up who is a member already…" /> : null}
        {rows.length ? (
          <>
            {rows.length > valid.length ? (
              <Alert color="orange" variant="light" icon={<IconAlert />}>
                Rows with problems are left out. Fix them in the file and choose it again to add them.
              </Alert>
            ) : null}
            <CsvPreview rows={rows} />
          </>
        ) : null}
      </DialogScroll>
      <DialogFooter justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="csv-summary">
          {rows.length
            ? `${formatCount(valid.length)} will be added, ${formatCount(rows.length - valid.length)} with problems.`
            : 'Choose a file to see each row.'}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={!valid.length} onClick={() => start(valid)}>
            Add {plural(valid.length, 'member')}
          </Button>
        </Group>
      </DialogFooter>
    </DialogLayout>
  );
}
