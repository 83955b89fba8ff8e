/**
 * Set or clear the expiration of one member or a selection: the member is disabled at the start of
 * the chosen day (the portal warns them some days before). Members the portal refused are listed
 * with its reason, and the dialog stays open on them.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, List, Modal, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describeError } from '../../../api/index.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { IconAlert } from '../../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../../components/useDirtyGuard.tsx';
import { formatDate, plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useSetExpiration } from './mutations.ts';
import { expiryFormSchema, expiryOf, type ExpiryFormValues } from './schemas.ts';

export interface ExpiryDialogProps {
  /** The members it sets or clears; null: closed. */
  usernames: string[] | null;
  /** One member's current expiration, when known. */
  current?: number | null;
  onClose: () => void;
}

const who = (usernames: string[]) => (usernames.length === 1 ? usernames[0] : plural(usernames.length, 'member'));

export function ExpiryDialog({ usernames, current, onClose }: ExpiryDialogProps) {
  const { cancel, close, onDirtyChange } = useFormDialog(usernames !== null, onClose);
  return (
    <Modal opened={usernames !== null} onClose={cancel} title={usernames ? `Expiration of ${who(usernames)}` : 'Expiration'} centered>
      {usernames ? <ExpiryForm usernames={usernames} current={current ?? null} onDone={close} onCancel={cancel} onDirtyChange={onDirtyChange} /> : null}
    </Modal>
  );
}

interface FormProps {
  usernames: string[];
  current: number | null;
  onDone: () => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

function ExpiryForm({ usernames, current, onDone, onCancel, onDirtyChange }: FormProps) {
  const user = useCurrentUser();
  const save = useSetExpiration(user.orgId);
  const [problem, setProblem] = useState<{ title: string; lines: string[] } | null>(null);
  const form = useForm<ExpiryFormValues>({ resolver: zodResolver(expiryFormSchema), defaultValues: { date: '' } });
  useReportDirty(form.formState.isDirty, onDirtyChange);

  const run = (expiration: number | null) => {
    setProblem(null);
    save.mutate(
      { usernames, expiration },
      {
        onSuccess: ({ results }) => {
          const failed = results.filter((r) => !r.status);
          const done = results.length - failed.length;
          if (done) {
            notifications.show({
              color: 'green',
              title: expiration === null ? 'Expiration cleared' : 'Expiration set',
              message: expiration === null ? `${who(usernames)}: no expiration.` : `${plural(done, 'member')} will be disabled on ${formatDate(expiration)}.`,
            });
          }
          if (!failed.length) onDone();
          else
            setProblem({
              title: `${plural(failed.length, 'member')} not changed`,
              lines: failed.map((f) => `${f.username}: ${f.error?.message ?? 'refused'}`),
            });
        },
        onError: (error) => setProblem({ title: 'Nothing was changed', lines: [describeError(error)] }),
      },
    );
  };

  return (
    <form onSubmit={form.handleSubmit((v) => run(expiryOf(v.date)))} noValidate aria-label="Set expiration">
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">
            {current ? (
              <>
                Expires on <strong>{formatDate(current)}</strong>.
              </>
            ) : usernames.length === 1 ? (
              'No expiration set.'
            ) : (
              `The date applies to each of the ${usernames.length} members.`
            )}{' '}
            On that day the member is disabled: they can no longer sign in, and their sessions end.
          </Text>
          {problem ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title={problem.title} role="alert">
              <List size="sm">
                {problem.lines.map((l) => (
                  <List.Item key={l}>{l}</List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          <TextInput type="date" label="Disable on" required data-autofocus {...form.register('date')} error={form.formState.errors.date?.message} />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          {current || usernames.length > 1 ? (
            <Button variant="light" color="red" onClick={() => run(null)} loading={save.isPending && save.variables?.expiration === null}>
              Clear expiration
            </Button>
          ) : null}
          <Button type="submit" loading={save.isPending && save.variables?.expiration !== null}>
            Set expiration
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
