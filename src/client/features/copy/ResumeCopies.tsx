/**
 * On Content: the copies from this organization that stopped before they finished (a closed tab, a
 * lost connection), kept in the browser by progress.ts, each offered to resume or to discard.
 * Resuming runs the kept plan from where it stopped, signed in to the target again unless the
 * console holds a session for that member there.
 */
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { announce } from '../../lib/announce.ts';
import { useSessionState } from '../../lib/session.ts';
import { ApplyStep, type Created } from './ApplyStep.tsx';
import { connectionOfSession } from './connections.ts';
import type { PortalConnection } from './portal.ts';
import { doneCount, forgetCopy, unfinishedCopies, type StoredCopy } from './progress.ts';
import { TargetChoice } from './TargetChoice.tsx';

const sameMember = (a: Pick<PortalConnection, 'portalUrl' | 'username'>, b: Pick<PortalConnection, 'portalUrl' | 'username'>) =>
  a.portalUrl.toLowerCase() === b.portalUrl.toLowerCase() && a.username.toLowerCase() === b.username.toLowerCase();

export function ResumeCopies() {
  const { session, sessions } = useSessionState();
  const source = useMemo(() => (session ? connectionOfSession(session) : undefined), [session]);
  const [version, setVersion] = useState(0);
  const [resuming, setResuming] = useState<StoredCopy>();
  // Read again after a resume or discard (version), not on every render.
  const records = useMemo(() => (source ? unfinishedCopies(source) : []), [source, version]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!source || !records.length) return null;
  return (
    <>
      {records.map((r) => (
        <Alert key={r.key} color="yellow" variant="light" mb="md" title="A copy did not finish" data-testid="unfinished-copy">
          <Group justify="space-between" align="flex-end">
            <Text size="sm">
              Copying {r.plan.steps.length} item{r.plan.steps.length === 1 ? '' : 's'} to {r.target.label} stopped after {doneCount(r)}. Resuming copies the
              rest; nothing already copied is copied twice.
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  forgetCopy(r.key);
                  setVersion((v) => v + 1);
                  announce('The unfinished copy was discarded.');
                }}
              >
                Discard
              </Button>
              <Button size="xs" onClick={() => setResuming(r)}>
                Resume the copy
              </Button>
            </Group>
          </Group>
        </Alert>
      ))}
      <Modal
        opened={!!resuming}
        onClose={() => {
          setResuming(undefined);
          setVersion((v) => v + 1);
        }}
        title={resuming ? `Resume the copy to ${resuming.target.label}` : ''}
        size="xl"
        centered
      >
        {resuming ? (
          <ResumeWizard
            record={resuming}
            source={source}
            known={sessions.map(connectionOfSession).filter((c) => sameMember(c, resuming.target))}
            onClose={() => {
              setResuming(undefined);
              setVersion((v) => v + 1);
            }}
          />
        ) : null}
      </Modal>
    </>
  );
}

function ResumeWizard({ record, source, known, onClose }: { record: StoredCopy; source: PortalConnection; known: PortalConnection[]; onClose: () => void }) {
  const [target, setTarget] = useState<PortalConnection | undefined>(known[0]);
  const [running, setRunning] = useState(false);
  const [created, setCreated] = useState<Created>({ created: [], createdGroups: [] });
  const wrongMember = target && (!sameMember(target, record.target) || target.orgId !== record.target.orgId);
  if (running && target && !wrongMember) {
    return (
      <ApplyStep
        plan={record.plan}
        source={source}
        target={target}
        created={created}
        onCreated={setCreated}
        onUndone={() => setCreated({ created: [], createdGroups: [] })}
        onClose={onClose}
        resumeFrom={record.progress}
      />
    );
  }
  return (
    <DialogLayout>
      <DialogScroll>
        <Text size="sm">
          {doneCount(record)} of {record.plan.steps.length} items were copied to {record.target.label} ({record.target.portalUrl}). Sign in there as{' '}
          {record.target.username} to copy the rest.
        </Text>
        <TargetChoice targets={target ? [target] : []} chosen={target} onChoose={setTarget} onAdd={setTarget} defaultPortalUrl={record.target.portalUrl} />
        {wrongMember ? (
          <Alert color="red" variant="light" role="alert" title="Another member">
            The copy was going to {record.target.username} in organization {record.target.orgId}; sign in as that member.
          </Alert>
        ) : null}
      </DialogScroll>
      <DialogFooter>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => setRunning(true)} disabled={!target || !!wrongMember}>
          Resume: copy {record.plan.steps.length - doneCount(record)} more
        </Button>
      </DialogFooter>
    </DialogLayout>
  );
}
