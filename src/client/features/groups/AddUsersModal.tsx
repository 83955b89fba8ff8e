/**
 * "Add users" to a group: members found by full name or username (MemberPicker, several at once),
 * usernames pasted as a list, or read from a CSV file (first column). Before anything is sent each
 * name is judged (eligibility.ts): already in the group or a disabled account — left out; not in
 * this organization — a warning, and a confirmation before sending; found — added. Then they are
 * added as members or managers in batches of 25 (the service's limit) with progress, one row per
 * username — added, or not added with the portal's reason — and a retry of those not added.
 * The state lives in useAddUsers; each step is its own component.
 */
import { Modal } from '@mantine/core';
import { AddUsersInput } from './AddUsersInput.tsx';
import { AddUsersProgress } from './AddUsersProgress.tsx';
import { AddUsersResults } from './AddUsersResults.tsx';
import { ConfirmOutside } from './ConfirmOutside.tsx';
import { useAddUsers, type AddUsersGroup } from './useAddUsers.ts';

export interface AddUsersModalProps {
  opened: boolean;
  onClose: () => void;
  group: AddUsersGroup;
}

export function AddUsersModal({ opened, onClose, group }: AddUsersModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Add users to ${group.title}`} size="xl" centered>
      {opened ? <AddUsers group={group} onClose={onClose} /> : null}
    </Modal>
  );
}

function AddUsers({ group, onClose }: Omit<AddUsersModalProps, 'opened'>) {
  const state = useAddUsers(group);
  const { phase, setPhase, run, as, skipped, ranAs } = state;

  if (phase.step === 'running') return <AddUsersProgress phase={phase} />;

  if (phase.step === 'done')
    return (
      <AddUsersResults results={state.results} leftOut={state.leftOut} onStartOver={state.startOver} onRetry={(names) => run(names, ranAs)} onClose={onClose} />
    );

  if (phase.step === 'confirm') {
    return (
      <ConfirmOutside
        outside={phase.outside}
        total={phase.names.length}
        access={state.access}
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

  return <AddUsersInput state={state} onClose={onClose} />;
}
