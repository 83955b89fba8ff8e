/**
 * The state of the "Add users" dialog, a wizard of four steps (input, confirm, running, done): the
 * names chosen three ways and merged, each judged by the eligibility rule, sending them in batches
 * with progress, and the result of each name kept across retries.
 */
import { useState } from 'react';
import { describeError, type GroupRecord, type PortalUser } from '../../api/index.ts';
import type { PickedMember } from '../../components/MemberPicker.tsx';
import { authorityHolder } from '../../lib/privileges.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { plural } from './addUsersWords.ts';
import { isSent, judge, membershipAccessOf, useEligibility } from './eligibility.ts';
import { BATCH_SIZE, useAddGroupUsers, type AddAs } from './mutations.ts';
import { mergeNames, parseCsvUsernames, parseNameList, type CsvUsernames } from './usernames.ts';

export type AddUsersGroup = Pick<GroupRecord, 'id' | 'title' | 'orgId'> & Partial<Pick<GroupRecord, 'membershipAccess'>>;

export interface NameResult {
  name: string;
  ok: boolean;
  detail: string;
}

type Phase =
  | { step: 'input' }
  | { step: 'confirm'; names: string[]; outside: string[] }
  | { step: 'running'; done: number; total: number; names: number }
  | { step: 'done' };

export function useAddUsers(group: AddUsersGroup) {
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
  const caller = authorityHolder(user);
  const judged = merged.names.map((name) => ({
    name,
    eligibility: judge(name, {
      groupUsers: eligibility.groupUsers,
      known: eligibility.known,
      lookupFailed: eligibility.lookupFailed,
      access,
      caller,
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

  return {
    user,
    caller,
    picked,
    setPicked,
    pasted,
    setPasted,
    file,
    csv,
    csvError,
    readFile,
    as,
    setAs,
    phase,
    setPhase,
    results,
    ranAs,
    leftOut,
    access,
    eligibility,
    judged,
    toSend,
    outside,
    skipped,
    fullNameOf,
    summary,
    submit,
    run,
    startOver,
  };
}

export type AddUsersState = ReturnType<typeof useAddUsers>;
