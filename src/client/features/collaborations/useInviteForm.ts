/**
 * The state of the invitation form: the guest and the access to each workspace (a participant
 * invited again starts with the workspaces it had), the error words of "no workspace", and
 * creating the invitation.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { CollaborationRecord, WorkspaceRecord } from '../../api/index.ts';
import { candidatesQuery } from '../../api/queries/collaborations.ts';
import { announce } from '../../lib/announce.ts';
import { applyServerErrors } from '../../lib/forms.ts';
import { useInviteParticipant } from './mutations.ts';
import { INVITATION_HOURS, INVITE_FIELDS, invitedWorkspaces, inviteSchema, type InviteChoice, type InviteInput, type InviteValues } from './schemas.ts';

/** Who is invited again (a removed or departed participant), with the workspaces it had. */
export interface InviteTarget {
  portalId: string;
  portalName: string;
  workspaces: Record<string, InviteChoice>;
}

export interface Sent {
  invitationId: string;
  guest: string;
}

export function useInviteForm({
  orgId,
  collaboration,
  workspaces,
  again,
  onSent,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  workspaces: readonly WorkspaceRecord[];
  again: InviteTarget | null;
  onSent: (sent: Sent) => void;
}) {
  const invite = useInviteParticipant(orgId, collaboration.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<InviteInput, unknown, InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: {
      participantPortalId: again?.portalId ?? '',
      expiration: INVITATION_HOURS.default,
      workspaces: Object.fromEntries(workspaces.map((w) => [w.id, again?.workspaces[w.id] ?? (again ? 'none' : 'sendAndReceive')])),
    },
    mode: 'onTouched',
  });
  // Workspaces read after the dialog opened get the same starting choice as those known at once
  // (otherwise their field is empty and the form refuses it with the schema's raw words).
  useEffect(() => {
    for (const w of workspaces) {
      if (form.getValues(`workspaces.${w.id}`) === undefined)
        form.setValue(`workspaces.${w.id}`, again?.workspaces[w.id] ?? (again ? 'none' : 'sendAndReceive'));
    }
  }, [workspaces, again, form]);
  const { errors, isDirty } = form.formState;
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
      { participantPortalId: values.participantPortalId, workspaces: shared, expiration: values.expiration },
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

  return { form, isDirty, formError, portalError, workspacesError, sending: invite.isPending, onSubmit };
}

export type InviteFormApi = ReturnType<typeof useInviteForm>['form'];
