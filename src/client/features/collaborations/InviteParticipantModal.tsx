/**
 * Inviting an organization to a collaboration the organization hosts — a new guest chosen by name,
 * or one removed, gone or that declined invited again — and the access it gets to each workspace.
 * The answer is the invitation as the portal has it, to hand to the guest's administrator.
 */
import { Alert, Button, Modal, NumberInput, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import type { CollaborationRecord, WorkspaceRecord } from '../../api/index.ts';
import { candidatesQuery } from '../../api/queries/collaborations.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { sentence } from '../../lib/forms.ts';
import { GuestOrganizationField } from './GuestOrganizationField.tsx';
import { InvitationResult } from './InvitationResult.tsx';
import { InviteWorkspaceAccess } from './InviteWorkspaceAccess.tsx';
import { INVITATION_HOURS } from './schemas.ts';
import { useInviteForm, type InviteTarget, type Sent } from './useInviteForm.ts';

export type { InviteTarget };

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
  const { form, isDirty, formError, portalError, workspacesError, sending, onSubmit } = useInviteForm({ orgId, collaboration, workspaces, again, onSent });
  useReportDirty(isDirty, onDirtyChange);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Invite participant">
      <DialogLayout>
        <DialogScroll gap="md">
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
          <InviteWorkspaceAccess form={form} workspaces={workspaces} workspacesError={workspacesError} again={!!again} />
          <Controller
            control={form.control}
            name="expiration"
            render={({ field, fieldState }) => (
              <NumberInput
                label="Expires after (hours)"
                description={`The guest can accept it until then (${INVITATION_HOURS.default} hours is 3 days); the invitation can be refreshed for 72 more hours afterwards.`}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                min={INVITATION_HOURS.min}
                max={INVITATION_HOURS.max}
                allowDecimal={false}
                clampBehavior="none"
                error={fieldState.error?.message ? sentence(fieldState.error.message) : undefined}
              />
            )}
          />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={sending} disabled={!workspaces.length}>
            {again ? 'Invite again' : 'Create invitation'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
