/**
 * "Add users" to a group: members found by full name or username (MemberPicker, several at once),
 * usernames pasted as a list, or read from a CSV file (first column). Before anything is sent each
 * name is judged (eligibility.ts): already in the group or a disabled account — left out; not in
 * this organization — a warning, and a confirmation before sending; found — added. Then they are
 * added as members or managers in batches of 25 (the service's limit) with progress, one row per
 * username — added, or not added with the portal's reason — and a retry of those not added.
 */
import { Alert, Badge, Button, FileInput, Group, Modal, Radio, ScrollArea, Stack, Table, Text, Textarea } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { describeError, type GroupRecord, type PortalUser } from '../../api/index.ts';
import { BulkProgress, BulkResultTable } from '../../components/Bulk.tsx';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { IconAlert, IconRefresh, IconUpload } from '../../components/icons.tsx';
import { MemberPicker, type PickedMember } from '../../components/MemberPicker.tsx';
import { announce } from '../../lib/announce.ts';
import { holds } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { ADD_EXTERNAL, isSent, judge, membershipAccessOf, useEligibility, type Eligibility } from './eligibility.ts';
import { BATCH_SIZE, useAddGroupUsers, type AddAs } from './mutations.ts';
import { mergeNames, parseCsvUsernames, parseNameList, type CsvUsernames } from './usernames.ts';

export interface AddUsersModalProps {
  opened: boolean;
  onClose: () => void;
  group: Pick<GroupRecord, 'id' | 'title' | 'orgId'> & Partial<Pick<GroupRecord, 'membershipAccess'>>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the eligibility list says about a name: a short word and a sentence. */
function describeEligibility(e: Eligibility): { badge: string; color: string; detail: string } {
  switch (e.kind) {
    case 'checking':
      return { badge: 'Checking', color: 'gray', detail: 'Looking this name up…' };
    case 'unchecked':
      return { badge: 'Not checked', color: 'gray', detail: 'Could not be looked up; the portal decides when it is sent.' };
    case 'ok':
      return { badge: 'Will be added', color: 'green', detail: 'A member of your organization.' };
    case 'promote':
      return { badge: 'Made manager', color: 'blue', detail: 'Already a member of the group: will be made a manager.' };
    case 'in-group':
      return {
        badge: 'Already in the group',
        color: 'gray',
        detail: `Already the group's ${e.as === 'owner' ? 'owner' : e.as}: left out.`,
      };
    case 'disabled':
      return { badge: 'Disabled', color: 'red', detail: 'The account is disabled: left out.' };
    case 'outside':
      return { badge: 'Not in your organization', color: 'orange', detail: e.note };
    case 'outside-refused':
      return { badge: 'Not found', color: 'red', detail: `${e.reason} Left out.` };
  }
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

type Phase =
  | { step: 'input' }
  | { step: 'confirm'; names: string[]; outside: string[] }
  | { step: 'running'; done: number; total: number; names: number }
  | { step: 'done' };

function AddUsers({ group, onClose }: Omit<AddUsersModalProps, 'opened'>) {
  const user = useCurrentUser();
  const add = useAddGroupUsers(group.id);
  const [picked, setPicked] = useState<PickedMember[]>([]);
  const [pasted, setPasted] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<CsvUsernames | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [as, setAs] = useState<AddAs>('members');
  const [phase, setPhase] = useState<Phase>({ step: 'input' });
  const [results, setResults] = useState<Map<string, NameResult>>(new Map());
  const [ranAs, setRanAs] = useState<AddAs>('members');
  const [leftOut, setLeftOut] = useState(0);

  const fromPaste = parseNameList(pasted);
  const merged = mergeNames(
    picked.map((m) => m.username),
    fromPaste,
    csv?.names ?? [],
  );
  const access = membershipAccessOf(group);
  const eligibility = useEligibility(group.id, merged.names);
  const judged = merged.names.map((name) => ({
    name,
    eligibility: judge(name, {
      groupUsers: eligibility.groupUsers,
      known: eligibility.known,
      lookupFailed: eligibility.lookupFailed,
      access,
      mayAddExternal: holds(user, ADD_EXTERNAL),
      as,
    }),
  }));
  const toSend = judged.filter((j) => isSent(j.eligibility)).map((j) => j.name);
  const outside = judged.filter((j) => j.eligibility.kind === 'outside').map((j) => j.name);
  const skipped = judged.length - toSend.length;
  const batches = Math.ceil(toSend.length / BATCH_SIZE);
  const fullNameOf = (name: string) => {
    const e = judged.find((j) => j.name === name)?.eligibility;
    const member: PortalUser | undefined = e && 'member' in e ? e.member : undefined;
    return member?.fullName || picked.find((m) => m.username.toLowerCase() === name.toLowerCase())?.fullName || '';
  };
  const summary = !merged.names.length
    ? 'No users chosen yet.'
    : eligibility.checking
      ? `Checking ${plural(merged.names.length, 'name')}…`
      : [
          `${plural(toSend.length, 'user')} to add${toSend.length ? ` in ${plural(batches, 'batch', 'batches')} of at most ${BATCH_SIZE}` : ''}`,
          skipped ? `${skipped} left out` : '',
          outside.length ? `${outside.length} not in your organization` : '',
          merged.duplicates ? `${plural(merged.duplicates, 'duplicate')} left out` : '',
        ]
          .filter(Boolean)
          .join(', ') + '.';

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

  const submit = () => {
    if (outside.length) setPhase({ step: 'confirm', names: toSend, outside });
    else run(toSend, as, skipped);
  };

  const run = (names: readonly string[], addAs: AddAs, left = leftOut) => {
    const total = Math.ceil(names.length / BATCH_SIZE);
    setLeftOut(left);
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
    setPicked([]);
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
          {leftOut ? ` ${plural(leftOut, 'name was', 'names were')} left out before sending (already in the group, disabled or not accepted).` : ''}
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

  if (phase.step === 'confirm') {
    return (
      <ConfirmOutside
        outside={phase.outside}
        total={phase.names.length}
        access={access}
        onBack={() => setPhase({ step: 'input' })}
        onLeaveOut={() =>
          run(
            phase.names.filter((n) => !phase.outside.includes(n)),
            as,
            skipped + phase.outside.length,
          )
        }
        onConfirm={() => run(phase.names, as, skipped)}
      />
    );
  }

  return (
    <Stack gap="md">
      {csvError ? (
        <Alert color="red" variant="light" icon={<IconAlert />} role="alert">
          {csvError}
        </Alert>
      ) : null}
      {access === 'org' ? (
        <Text size="sm" c="dimmed">
          This group accepts only members of your organization.
        </Text>
      ) : access === 'collaboration' ? (
        <Text size="sm" c="dimmed">
          This group accepts members of your organization and of organizations in a partnered collaboration with it.
        </Text>
      ) : null}
      <MemberPicker
        multiple
        orgId={user.orgId}
        label="Find members"
        description="Search by full name or username; choose as many as you like."
        value={picked}
        onChange={setPicked}
        clearLabel="Clear the chosen members"
        dialogAutoFocus
        describeMember={(m) => {
          const e = judge(m.username, {
            groupUsers: eligibility.groupUsers,
            known: new Map([[m.username.toLowerCase(), m]]),
            lookupFailed: false,
            access,
            mayAddExternal: true,
            as,
          });
          return e.kind === 'ok' ? null : describeEligibility(e).detail;
        }}
      />
      <Textarea
        label="Or paste a list"
        description="One username per line, or separated by commas or spaces."
        autosize
        minRows={2}
        maxRows={6}
        value={pasted}
        onChange={(e) => setPasted(e.currentTarget.value)}
        spellCheck={false}
      />
      <FileInput
        label="Or a CSV file"
        description={
          csv
            ? `${plural(csv.names.length, 'username')} read from the first column${csv.headerSkipped ? ' (header row left out)' : ''}.`
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
      <Stack gap={6}>
        <Text size="sm" data-testid="names-summary" aria-live="polite" aria-atomic="true">
          {summary}
        </Text>
        {eligibility.lookupFailed ? (
          <Text size="sm" c="dimmed">
            The names could not all be looked up; those are sent as they are and the portal decides.
          </Text>
        ) : null}
        {outside.length && !eligibility.checking ? (
          <Alert color="orange" variant="light" icon={<IconAlert />} title={`${plural(outside.length, 'name is', 'names are')} not in your organization`}>
            Members of other organizations see what is shared with this group. You will be asked to confirm before they are added.
          </Alert>
        ) : null}
        {judged.length ? (
          <ScrollArea.Autosize mah={220} type="auto">
            <Table verticalSpacing={4} fz="sm" aria-label="Who will be added" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">User</Table.Th>
                  <Table.Th scope="col">Before adding</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {judged.map(({ name, eligibility: e }) => {
                  const d = describeEligibility(e);
                  const fullName = fullNameOf(name);
                  return (
                    <Table.Tr key={name.toLowerCase()}>
                      <Table.Td>
                        {fullName ? `${fullName} ` : ''}
                        <Text span size="sm" ff="monospace" c={fullName ? 'dimmed' : undefined}>
                          {fullName ? `(${name})` : name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="wrap" align="flex-start">
                          <Badge color={d.color} variant="light" tt="none" style={{ flex: 'none' }}>
                            {d.badge}
                          </Badge>
                          <Text size="xs" c="dimmed">
                            {d.detail}
                          </Text>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        ) : null}
      </Stack>
      <DialogFooter mt="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!toSend.length || eligibility.checking} onClick={submit}>
          {toSend.length ? `Add ${plural(toSend.length, 'user')}` : 'Add users'}
        </Button>
      </DialogFooter>
    </Stack>
  );
}

const WRAP = { label: { whiteSpace: 'normal' as const } };

/** The step before sending names that are not in this organization: send them, leave them out, or go back. */
function ConfirmOutside({
  outside,
  total,
  access,
  onBack,
  onLeaveOut,
  onConfirm,
}: {
  outside: string[];
  total: number;
  access: 'none' | 'org' | 'collaboration';
  onBack: () => void;
  onLeaveOut: () => void;
  onConfirm: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    announce(`Confirm: ${plural(outside.length, 'name is', 'names are')} not in your organization.`);
  }, [outside.length]);
  const rest = total - outside.length;
  return (
    <Stack gap="md" role="group" aria-labelledby="confirm-outside-heading">
      <Text component="h2" fw={600} size="lg" id="confirm-outside-heading" ref={heading} tabIndex={-1}>
        Add members of other organizations?
      </Text>
      <Text size="sm">
        {plural(outside.length, 'name is', 'names are')} not in your organization. Members of other organizations will see everything shared with this group
        {access === 'collaboration' ? '; the group takes only those of partnered organizations' : ''}. A name with no account is reported as not added.
      </Text>
      <ScrollArea.Autosize mah={120} type="auto">
        <Text size="sm" ff="monospace" aria-label="Not in your organization">
          {outside.join(', ')}
        </Text>
      </ScrollArea.Autosize>
      <Group justify="space-between" wrap="wrap">
        <Button variant="subtle" onClick={onBack}>
          Back
        </Button>
        <Group gap="sm" wrap="wrap">
          {rest ? (
            <Button variant="default" onClick={onLeaveOut} h="auto" py={8} styles={WRAP}>
              Leave them out, add {plural(rest, 'user')}
            </Button>
          ) : null}
          {/* Long labels wrap instead of running out of a narrow dialog. */}
          <Button onClick={onConfirm} h="auto" py={8} styles={WRAP}>
            {rest ? `Add all ${total}, with ${outside.length} of other organizations` : `Add ${plural(outside.length, 'member')} of other organizations`}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
