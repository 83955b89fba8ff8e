/**
 * Inviting a portal to a collaboration the organization hosts — a new guest, or one removed (or
 * gone) invited again: the guest portal's ID and the access it gets to each workspace. The answer
 * is an invitation to hand to the guest's administrator, shown with a copy button.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { WORKSPACE_ACCESS } from '../../../shared/contract/collaborations.ts';
import type { CollaborationRecord, WorkspaceRecord } from '../../api/index.ts';
import { CopyValue } from '../../components/CopyValue.tsx';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { announce } from '../../lib/announce.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useInviteParticipant } from './mutations.ts';
import { ACCESS_LABELS, INVITE_FIELDS, invitedWorkspaces, inviteSchema, type InviteChoice, type InviteInput, type InviteValues } from './schemas.ts';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';

/** Who is invited again (a removed or departed participant), with the workspaces it had. */
export interface InviteTarget {
  portalId: string;
  portalName: string;
  workspaces: Record<string, InviteChoice>;
}

export interface InviteParticipantModalProps {
  orgId: string;
  collaboration: CollaborationRecord;
  workspaces: readonly WorkspaceRecord[];
  /** Null: closed; `'new'`: a new guest; a target: that portal again. */
  target: InviteTarget | 'new' | null;
  onClose: () => void;
}

interface Sent {
  invitationId: string;
  guest: string;
  text: string;
}

export function InviteParticipantModal({ orgId, collaboration, workspaces, target, onClose }: InviteParticipantModalProps) {
  const [sent, setSent] = useState<Sent | null>(null);
  // Esc, the overlay, the close button and Cancel ask before a changed invitation is thrown away.
  const dialog = useFormDialog(!!target, onClose);
  const close = () => {
    setSent(null);
    dialog.close();
  };
  const again = target && target !== 'new' ? target : null;
  const title = sent ? 'Invitation ready' : again ? `Invite ${again.portalName} again` : `Invite a participant to ${collaboration.name}`;
  return (
    <Modal opened={!!target} onClose={sent ? close : dialog.cancel} title={title} size="lg" centered>
      {!target ? null : sent ? (
        <InvitationResult sent={sent} onDone={close} />
      ) : (
        <InviteForm
          orgId={orgId}
          collaboration={collaboration}
          workspaces={workspaces}
          again={again}
          onCancel={dialog.cancel}
          onDirtyChange={dialog.onDirtyChange}
          onSent={(s) => (dialog.onDirtyChange(false), setSent(s))}
        />
      )}
    </Modal>
  );
}

function InviteForm({
  orgId,
  collaboration,
  workspaces,
  again,
  onCancel,
  onDirtyChange,
  onSent,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  workspaces: readonly WorkspaceRecord[];
  again: InviteTarget | null;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
  onSent: (sent: Sent) => void;
}) {
  const invite = useInviteParticipant(orgId, collaboration.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<InviteInput, unknown, InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: {
      participantPortalId: again?.portalId ?? '',
      workspaces: Object.fromEntries(workspaces.map((w) => [w.id, again?.workspaces[w.id] ?? (again ? 'none' : 'sendAndReceive')])),
    },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useReportDirty(isDirty, onDirtyChange);
  const portalError = errors.participantPortalId?.message;
  // The schema refuses an invitation to no workspace; a form library keeps a record's own error
  // apart from its entries', so the words are taken from the schema's check of what is chosen now.
  const chosen = form.watch('workspaces');
  const noWorkspace = inviteSchema.shape.workspaces.safeParse(chosen);
  const workspacesError =
    (errors.workspaces as { message?: string } | undefined)?.message ??
    (form.formState.isSubmitted && !noWorkspace.success ? noWorkspace.error.issues[0]?.message : undefined);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    const shared = invitedWorkspaces(values);
    invite.mutate(
      { participantPortalId: values.participantPortalId, workspaces: shared },
      {
        onSuccess: ({ invitationId }) => {
          const guest = again?.portalName ?? values.participantPortalId;
          const lines = workspaces.filter((w) => shared[w.id]).map((w) => `  - ${w.name}: ${ACCESS_LABELS[shared[w.id]].toLowerCase()}`);
          const text = [
            `Invitation to the collaboration “${collaboration.name}”, hosted by ${collaboration.hostPortalName ?? 'us'}.`,
            `Invitation ID: ${invitationId}`,
            `Invited portal: ${values.participantPortalId}`,
            'Workspaces:',
            ...lines,
            // The console has no guest-side list of invitations yet: the guest's portal accepts by this ID.
            'To accept, an administrator of the invited portal accepts this invitation ID on that portal (collaborations/acceptInvitation).',
          ].join('\n');
          notifications.show({ color: 'green', title: 'Invitation created', message: `${guest} is invited to ${collaboration.name}.` });
          announce(`Invitation created for ${guest}. Copy it and send it to the guest's administrator.`);
          onSent({ invitationId, guest, text });
        },
        onError: (error) => {
          const message = applyServerErrors(error, INVITE_FIELDS, form.setError);
          setFormError(message);
          announce(`The invitation was not created. ${message ?? 'Check the fields marked.'}`, 'assertive');
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Invite participant">
      <Stack gap="md">
        {formError ? (
          <Alert color="red" variant="light" title="The invitation was not created" role="alert">
            {formError}
          </Alert>
        ) : null}
        {again ? (
          <Text size="sm">
            {again.portalName} was taken out of {collaboration.name}. A new invitation brings it back once its administrator accepts; the workspaces it had are
            chosen below.
          </Text>
        ) : null}
        <TextInput
          label="Guest portal ID"
          description="The ID of the portal (organization) to invite, as its administrator gives it to you."
          required
          readOnly={!!again}
          maxLength={64}
          error={portalError ? sentence(portalError) : undefined}
          data-autofocus={again ? undefined : true}
          {...form.register('participantPortalId')}
        />
        <div role="group" aria-labelledby="invite-workspaces-label" aria-describedby={workspacesError ? 'invite-workspaces-error' : undefined}>
          <Text id="invite-workspaces-label" size="sm" fw={500}>
            Workspaces shared with the guest
          </Text>
          <Text size="xs" c="dimmed" mb={6}>
            For each workspace, whether the guest sends content to it, receives it, or both — or leave the workspace out.
          </Text>
          {workspaces.length ? (
            <Table verticalSpacing={4} aria-label="Workspaces shared with the guest">
              <Table.Tbody>
                {workspaces.map((w, i) => (
                  <Table.Tr key={w.id}>
                    <Table.Th scope="row" fw={500}>
                      <Text size="sm">{w.name}</Text>
                    </Table.Th>
                    <Table.Td w={220}>
                      <Controller
                        control={form.control}
                        name={`workspaces.${w.id}`}
                        render={({ field }) => (
                          <Select
                            aria-label={`Guest access to ${w.name}`}
                            allowDeselect={false}
                            data={[{ value: 'none', label: 'Left out' }, ...WORKSPACE_ACCESS.map((a) => ({ value: a, label: ACCESS_LABELS[a] }))]}
                            value={field.value}
                            onChange={(v) => field.onChange(v ?? 'none')}
                            data-autofocus={again && i === 0 ? true : undefined}
                          />
                        )}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="orange.8">
              This collaboration has no workspace yet: a guest is invited to workspaces, so add one first.
            </Text>
          )}
          {workspacesError ? (
            <Text id="invite-workspaces-error" size="sm" c="red.8" mt={4}>
              {sentence(workspacesError)}
            </Text>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending} disabled={!workspaces.length}>
            {again ? 'Invite again' : 'Create invitation'}
          </Button>
        </DialogFooter>
      </Stack>
    </form>
  );
}

function InvitationResult({ sent, onDone }: { sent: Sent; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        {sent.guest} is invited. Send this invitation to its administrator (by e-mail or another channel you trust); it takes part once the invitation is
        accepted.
      </Text>
      <CopyValue label="Invitation ID" value={sent.invitationId} copyLabel="Copy invitation ID" inline />
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Invitation
        </Text>
        <Code block aria-label="Invitation" style={{ whiteSpace: 'pre-wrap' }}>
          {sent.text}
        </Code>
        <Group>
          <CopyButton value={sent.text} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  copy();
                  announce('Invitation copied');
                }}
              >
                {copied ? 'Copied' : 'Copy invitation'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <DialogFooter>
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </DialogFooter>
    </Stack>
  );
}
