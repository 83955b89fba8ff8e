/**
 * The documented way a guest accepts: `portals/<portalId>/acceptCollaborationInvitation`, a
 * multipart POST whose `invitationFile` is the file the host handed over (developers.arcgis.com,
 * "Accept Collaboration Invitation"). This portal's host exports that file as the invitation's
 * `invitationString` (`{"invitationRequest": {…}}`, named by `config.invitationRequestFilename`).
 *
 * The file only says which invitation is meant: what is accepted is the invitation this portal
 * stored, so a file edited on the way changes nothing. A file that is not an invitation, names
 * another organization or an invitation this portal never issued, or one no longer open
 * (accepted, declined, cancelled when the host removed the guest, invalidated, or past its
 * expiry until the host refreshes it) is refused with its reason.
 * The contact and host web-tier authentication fields are for portals on two machines; here
 * both organizations live in one service, so they are read and not needed.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import { uploadedFileParam, type UploadedFile } from '../../http/params.ts';
import { findInvitation } from './repo.ts';
import { acceptInvitation, invitationState } from './service.ts';

/** An invitation file is a few hundred bytes; anything this large is not one. */
export const INVITATION_FILE_MAX_BYTES = 64 * 1024;

const uploadedFile = uploadedFileParam();
const contact = z.string().max(256).optional();

export const acceptInvitationFileParams = z.object({
  invitationFile: uploadedFile,
  guestContactFirstname: contact,
  guestContactLastname: contact,
  guestContactEmailAddress: contact,
  hostWebauthUsername: contact,
  hostWebauthPassword: contact,
  hostWebauthCertificateFile: z.union([uploadedFile, z.string()]).optional(),
  hostWebauthCertPassword: contact,
});

export const ACCEPT_INVITATION_FILES = { parts: { invitationFile: INVITATION_FILE_MAX_BYTES, hostWebauthCertificateFile: INVITATION_FILE_MAX_BYTES } };

const MESSAGE = 'Unable to accept the collaboration invitation.';
const refuse = (problem: string) => new ApiError(400, MESSAGE, [`'invitationFile' ${problem}`], undefined, { invitationFile: problem });

const invitationRequest = z.object({
  invitationRequest: z.object({ id: z.string().min(1).max(64), collaborationId: z.string().min(1).max(64), guestPortalId: z.string().min(1).max(64) }),
});

/** What the file names, or a refusal saying why it is not an invitation file. */
async function readInvitationFile(file: UploadedFile) {
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readFile(file.path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    throw refuse('is not a collaboration invitation file (it is not the JSON a host exports).');
  }
  const named = invitationRequest.safeParse(parsed);
  if (!named.success) throw refuse('is not a collaboration invitation file (it has no invitationRequest with an id, a collaboration and a guest).');
  return named.data.invitationRequest;
}

const NO_LONGER_OPEN: Record<string, string> = {
  accepted: 'names an invitation that was already accepted.',
  declined: 'names an invitation that was declined.',
  cancelled: 'names an invitation that has expired: the host cancelled it or removed your organization from the collaboration. Ask the host for a new one.',
  invalidated: 'names an invitation the host invalidated. Ask the host for a new one.',
};

export async function acceptInvitationFile(ctx: PortalContext, caller: Caller, orgId: string, file: UploadedFile) {
  const request = await readInvitationFile(file);
  if (request.guestPortalId !== orgId) throw refuse(`invites another organization ('${request.guestPortalId}'), not this one.`);
  const invitation = await findInvitation(ctx.db, orgId, request.id);
  if (!invitation || invitation.collaboration_id !== request.collaborationId) {
    throw refuse('names an invitation this portal did not issue to your organization: it may come from another portal, or have been changed.');
  }
  if (invitationState(invitation, ctx.clock.now()) === 'expired') {
    throw refuse(`names an invitation that expired at ${new Date(invitation.expires!).toISOString()}. Ask the host to refresh it and send the new file.`);
  }
  if (invitation.state !== 'pending') throw refuse(NO_LONGER_OPEN[invitation.state] ?? 'names an invitation that is no longer open.');
  // Workspaces are linked to groups afterwards, as the documented flow has it.
  return acceptInvitation(ctx, caller, orgId, { invitationId: invitation.id, workspaceGroups: {} });
}
