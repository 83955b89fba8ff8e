/**
 * Inviting an organization to a collaboration the organization hosts — a new guest chosen by name,
 * or one removed, gone or that declined invited again — and the access it gets to each workspace.
 * The answer is the invitation as the portal has it, to hand to the guest's administrator.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { WORKSPACE_ACCESS } from '../../../shared/contract/collaborations.ts';
import type { CollaborationRecord, WorkspaceRecord } from '../../api/index.ts';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { candidatesQuery } from '../../api/queries/collaborations.ts';
import { announce } from '../../lib/announce.ts';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { GuestOrganizationField } from './GuestOrganizationField.tsx';
import { useInviteParticipant } from './mutations.ts';
import { InvitationView } from './ShowInvitationModal.tsx';
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
  /** Organizations already taking part or invited: not offered as new guests. */
  participantIds: readonly string[];
  onClose: () => void;
}

interface Sent {
  invitationId: string;
  guest: string;
}

export function InviteParticipantModal({ orgId, collaboration, workspaces, target, participantIds, onClose }: InviteParticipantModalProps) {
  const [sent, setSent] = useState<Sent | null>(null);
  // The organizations to choose from are read before the dialog opens, so its list is never empty while loading.
  const caps = usePortalCapabilities();
  useQuery({ ...candidatesQuery(orgId), enabled: caps.localExtras, retry: false });
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
        <InvitationResult orgId={orgId} collaboration={collaboration} sent={sent} onDone={close} />
      ) : (
        <InviteForm
          orgId={orgId}
          collaboration={collaboration}
          workspaces={workspaces}
          again={again}
          participantIds={participantIds}
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
  participantIds,
  onCancel,
  onDirtyChange,
  onSent,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  workspaces: readonly WorkspaceRecord[];
  again: InviteTarget | null;
  participantIds: readonly string[];
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

  // The chosen organization's name, from the list the field offered (the ID when typed).
  const candidates = useQuery({ ...candidatesQuery(orgId), enabled: false });
  const guestName = (id: string) => candidates.data?.portals.find((p) => p.id === id)?.name ?? id;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    const shared = invitedWorkspaces(values);
    invite.mutate(
      { participantPortalId: values.participantPortalId, workspaces: shared },
      {
        onSuccess: ({ invitationId }) => {
          const guest = again?.portalName ?? guestName(values.participantPortalId);
          notifications.show({ color: 'green', title: 'Invitation created', message: `${guest} is invited to ${collaboration.name}.` });
          announce(`Invitation created for ${guest}. Copy it and send it to the guest's administrator.`);
          onSent({ invitationId, guest });
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
            {again.portalName} does not take part in {collaboration.name} now. A new invitation brings it in once its administrators accept; the workspaces it
            had are chosen below.
          </Text>
        ) : null}
        {again ? (
          <TextInput label="Guest organization" value={again.portalName} readOnly />
        ) : (
          <Controller
            control={form.control}
            name="participantPortalId"
            render={({ field }) => (
              <GuestOrganizationField
                orgId={orgId}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={portalError ? sentence(portalError) : undefined}
                exclude={participantIds}
              />
            )}
          />
        )}
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

function InvitationResult({ orgId, collaboration, sent, onDone }: { orgId: string; collaboration: CollaborationRecord; sent: Sent; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        {sent.guest} is invited. Its administrators see the invitation under Collaborations → Invitations in their console; you can also send it to them (by
        e-mail or another channel you trust). It takes part once the invitation is accepted.
      </Text>
      <InvitationView orgId={orgId} collaboration={collaboration} invitationId={sent.invitationId} />
      <DialogFooter>
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </DialogFooter>
    </Stack>
  );
}
