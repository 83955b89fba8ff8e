/**
 * "Add users" to a group: usernames typed, pasted as a list, or read from a CSV file (first
 * column), added as members or managers in batches of 25 (the service's limit) with progress, then
 * one row per username — added, or not added with the portal's reason — and a retry of those not
 * added.
 */
import { Alert, Button, FileInput, Group, Modal, Pill, Radio, ScrollArea, Stack, TagsInput, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { describeError, type GroupRecord } from '../../api/index.ts';
import { BulkProgress, BulkResultTable } from '../../components/Bulk.tsx';
import { IconAlert, IconRefresh, IconUpload } from '../../components/icons.tsx';
import { BATCH_SIZE, useAddGroupUsers, type AddAs } from './mutations.ts';
import { mergeNames, parseCsvUsernames, parseNameList, type CsvUsernames } from './usernames.ts';

export interface AddUsersModalProps {
  opened: boolean;
  onClose: () => void;
  group: Pick<GroupRecord, 'id' | 'title'>;
}

export function AddUsersModal({ opened, onClose, group }: AddUsersModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Add users to ${group.title}`} size="xl" centered>
      {opened ? <AddUsers group={group} onClose={onClose} /> : null}
    </Modal>
  );
}

interface NameResult {
  name: string;
  ok: boolean;
  detail: string;
}

type Phase = { step: 'input' } | { step: 'running'; done: number; total: number; names: number } | { step: 'done' };

function AddUsers({ group, onClose }: Omit<AddUsersModalProps, 'opened'>) {
  const add = useAddGroupUsers(group.id);
  const [typed, setTyped] = useState<string[]>([]);
  const [pasted, setPasted] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<CsvUsernames | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [as, setAs] = useState<AddAs>('members');
  const [phase, setPhase] = useState<Phase>({ step: 'input' });
  const [results, setResults] = useState<Map<string, NameResult>>(new Map());
  const [ranAs, setRanAs] = useState<AddAs>('members');

  const fromPaste = parseNameList(pasted);
  const merged = mergeNames(typed, fromPaste, csv?.names ?? []);
  const batches = Math.ceil(merged.names.length / BATCH_SIZE);

  const readFile = async (f: File | null) => {
    setFile(f);
    setCsv(null);
    setCsvError(null);
    if (!f) return;
    try {
      setCsv(parseCsvUsernames(await f.text()));
    } catch (err) {
      setCsvError(`The file could not be read: ${describeError(err)}`);
    }
  };

  const run = (names: readonly string[], addAs: AddAs) => {
    const total = Math.ceil(names.length / BATCH_SIZE);
    setRanAs(addAs);
    setPhase({ step: 'running', done: 0, total, names: names.length });
    add.mutate(
      { names, as: addAs, onProgress: (done) => setPhase({ step: 'running', done, total, names: names.length }) },
      {
        onSuccess: (outcomes) => {
          setResults((prev) => {
            const next = new Map(prev);
            for (const o of outcomes) {
              const reasons = o.ok ? new Map((o.value.notAddedReasons ?? []).map((r) => [r.username.toLowerCase(), r.reason])) : new Map<string, string>();
              const notAdded = o.ok ? new Set(o.value.notAdded.map((n) => n.toLowerCase())) : new Set<string>();
              for (const name of o.item) {
                const key = name.toLowerCase();
                if (!o.ok) next.set(key, { name, ok: false, detail: `The request failed: ${describeError(o.error)}` });
                else if (notAdded.has(key) || reasons.has(key))
                  next.set(key, { name, ok: false, detail: reasons.get(key) ?? 'The portal did not add this user and gave no reason.' });
                else next.set(key, { name, ok: true, detail: addAs === 'managers' ? 'In the group as a manager' : 'In the group' });
              }
            }
            return next;
          });
          setPhase({ step: 'done' });
        },
        onError: (error) => {
          setCsvError(describeError(error));
          setPhase({ step: 'input' });
        },
      },
    );
  };

  const startOver = () => {
    setTyped([]);
    setPasted('');
    void readFile(null);
    setResults(new Map());
    setPhase({ step: 'input' });
  };

  if (phase.step === 'running') {
    const namesSent = Math.min(phase.done * BATCH_SIZE, phase.names);
    return (
      <Stack gap="md" py="md">
        <BulkProgress
          label={`Adding ${phase.names} user${phase.names === 1 ? '' : 's'}`}
          autoFocus
          done={phase.done}
          total={phase.total}
          detail={`Batch ${Math.min(phase.done + 1, phase.total)} of ${phase.total} · ${namesSent} of ${phase.names} names sent`}
        />
        <Text size="sm" c="dimmed">
          Users are added {BATCH_SIZE} at a time, the most the portal takes in one request.
        </Text>
      </Stack>
    );
  }

  if (phase.step === 'done') {
    const rows = [...results.values()];
    const notAdded = rows.filter((r) => !r.ok).map((r) => r.name);
    return (
      <Stack gap="md">
        <BulkResultTable
          label="Add users results"
          rows={rows.map((r) => ({
            key: r.name.toLowerCase(),
            name: (
              <Text size="sm" ff="monospace">
                {r.name}
              </Text>
            ),
            spoken: r.name,
            ok: r.ok,
            detail: r.detail,
          }))}
          nameHeader="Username"
          successLabel="Added"
          failureLabel="Not added"
          autoFocus
        />
        <Text size="xs" c="dimmed">
          Users who were already in the group count as added.
        </Text>
        <Group justify="space-between">
          <Button variant="subtle" onClick={startOver}>
            Add more users
          </Button>
          <Group gap="sm">
            {notAdded.length ? (
              <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => run(notAdded, ranAs)}>
                Retry the ones not added ({notAdded.length})
              </Button>
            ) : null}
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {csvError ? (
        <Alert color="red" variant="light" icon={<IconAlert />} role="alert">
          {csvError}
        </Alert>
      ) : null}
      <TagsInput
        label="Usernames"
        description="Type a username and press Enter; pasting several works too."
        value={typed}
        onChange={setTyped}
        splitChars={[',', ' ', ';']}
        acceptValueOnBlur
        clearable
        data-autofocus
      />
      <Textarea
        label="Paste a list"
        description="One username per line, or separated by commas or spaces."
        autosize
        minRows={3}
        maxRows={8}
        value={pasted}
        onChange={(e) => setPasted(e.currentTarget.value)}
        spellCheck={false}
      />
      <FileInput
        label="Or a CSV file"
        description={
          csv
            ? `${csv.names.length} username${csv.names.length === 1 ? '' : 's'} read from the first column${csv.headerSkipped ? ' (header row left out)' : ''}.`
            : 'Usernames in the first column; a header row is fine.'
        }
        placeholder="Choose a .csv file"
        accept=".csv,text/csv,text/plain"
        leftSection={<IconUpload size={16} />}
        value={file}
        onChange={(f) => void readFile(f)}
        clearable
      />
      <Radio.Group label="Add them as" value={as} onChange={(v) => setAs(v)}>
        <Group gap="lg" mt={6}>
          <Radio value="members" label="Members" />
          <Radio value="managers" label="Managers" />
        </Group>
      </Radio.Group>
      <Stack gap={6} aria-live="polite">
        <Text size="sm" data-testid="names-summary">
          {merged.names.length
            ? `${merged.names.length} username${merged.names.length === 1 ? '' : 's'} to add in ${batches} batch${batches === 1 ? '' : 'es'} of at most ${BATCH_SIZE}${merged.duplicates ? ` (${merged.duplicates} duplicate${merged.duplicates === 1 ? '' : 's'} left out)` : ''}.`
            : 'No usernames yet.'}
        </Text>
        {merged.names.length ? (
          <ScrollArea.Autosize mah={96} type="auto">
            <Pill.Group aria-label="Usernames to add">
              {merged.names.map((n) => (
                <Pill key={n.toLowerCase()}>{n}</Pill>
              ))}
            </Pill.Group>
          </ScrollArea.Autosize>
        ) : null}
      </Stack>
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!merged.names.length} onClick={() => run(merged.names, as)}>
          {merged.names.length ? `Add ${merged.names.length} user${merged.names.length === 1 ? '' : 's'}` : 'Add users'}
        </Button>
      </Group>
    </Stack>
  );
}
