/**
 * Collaborations: the ones the organization hosts or joins as a guest; for each, its participants
 * (portal, role, status, workspaces) and workspaces (who exchanges through them), and — for the
 * host — removing a participant after an impact preview and a typed confirmation; a guest may
 * leave the same way. The host also creates collaborations (with their first workspace), invites
 * organizations by name — one that is out again from its row — and shows an invitation again from
 * its row. Above the list, the guest's side: the invitations it has to answer, or — on a portal
 * without the local extras — accepting with the invitation file the host sent.
 */
import { Accordion, Group, Pagination } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { collaborationsQuery } from '../../api/queries/collaborations.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AcceptInvitationFile } from './AcceptInvitationFile.tsx';
import { CollaborationDetails } from './CollaborationDetails.tsx';
import { CollaborationHeading } from './CollaborationHeading.tsx';
import { GuestInvitations } from './GuestInvitations.tsx';
import { NewCollaborationModal } from './NewCollaborationModal.tsx';
import { collaborationAction } from './permissions.ts';

export default function CollaborationsPage() {
  const user = useCurrentUser();
  const [start, setStart] = useState(1);
  const list = useQuery(collaborationsQuery(user.orgId, start));
  const [open, setOpen] = useState<string | null>(null);
  const rows = list.data?.collaborations ?? [];
  const current = open ?? rows[0]?.id ?? null;
  const caps = usePortalCapabilities();
  const [creating, setCreating] = useState(false);
  // Creating is a local-portal operation; elsewhere the button says so instead.
  const mayCreate = localOnly(caps, 'creating collaborations from the console', collaborationAction(user, 'createCollaboration', 'create collaborations'));
  const newButton = (
    <GuardedButton permission={mayCreate} onClick={() => setCreating(true)}>
      New collaboration
    </GuardedButton>
  );

  return (
    <>
      <PageHeader
        title="Collaborations"
        description="Distributed collaborations your organization hosts or takes part in, who participates, and the workspaces content is exchanged through."
        actions={newButton}
      />
      <NewCollaborationModal opened={creating} onClose={() => setCreating(false)} onCreated={(id) => setOpen(id)} />
      {/* The guest's side: invitations to answer (a local-portal list). */}
      {caps.localExtras ? (
        <GuestInvitations
          orgId={user.orgId}
          mayAnswer={collaborationAction(user, 'acceptCollaborationInvitation', 'accept invitations')}
          onAccepted={(id) => setOpen(id)}
        />
      ) : caps.known ? (
        // Elsewhere (ArcGIS Enterprise) the guest accepts with the host's invitation file, as documented.
        <AcceptInvitationFile
          orgId={user.orgId}
          mayAnswer={collaborationAction(user, 'acceptCollaborationInvitation', 'accept invitations')}
          onAccepted={(id) => setOpen(id)}
        />
      ) : null}
      {list.isPending ? <LoadingState label="Loading collaborations…" /> : null}
      {list.isError ? <ErrorState error={list.error} title="Collaborations could not be loaded" onRetry={() => list.refetch()} /> : null}
      {list.data && !rows.length ? <EmptyPanel title="No collaborations" description="Collaborations your organization hosts or joins appear here." /> : null}
      {rows.length ? (
        <Accordion value={current} onChange={setOpen} variant="separated" radius="md">
          {rows.map((c) => (
            <Accordion.Item key={c.id} value={c.id}>
              {/* Named by its content, which starts with the collaboration's name (an aria-label would leave out the rest shown). */}
              <Accordion.Control>
                <CollaborationHeading c={c} orgId={user.orgId} />
              </Accordion.Control>
              <Accordion.Panel>{current === c.id ? <CollaborationDetails orgId={user.orgId} c={c} /> : null}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      ) : null}
      {list.data && list.data.total > 20 ? (
        <Group justify="center" mt="md">
          <Pagination total={Math.ceil(list.data.total / 20)} value={Math.floor((start - 1) / 20) + 1} onChange={(p) => setStart((p - 1) * 20 + 1)} />
        </Group>
      ) : null}
    </>
  );
}
