/** The new-collaboration form and the invite form: what they hold, their checks, their wire values. */
import { z } from 'zod';
import { COLLABORATION_LIMITS, WORKSPACE_ACCESS, type WorkspaceAccess } from '../../../shared/contract/collaborations.ts';
import { tooLong } from '../../lib/forms.ts';

export const ACCESS_LABELS: Record<WorkspaceAccess, string> = {
  sendAndReceive: 'Send and receive',
  send: 'Send only',
  receive: 'Receive only',
};

const CONTACT_CHARS = 128;

export const newCollaborationSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name for the collaboration').max(COLLABORATION_LIMITS.nameChars, tooLong('the name', COLLABORATION_LIMITS.nameChars)),
  description: z.string().max(COLLABORATION_LIMITS.descriptionChars, tooLong('the description', COLLABORATION_LIMITS.descriptionChars)),
  workspaceName: z
    .string()
    .trim()
    .min(1, 'Enter a name for the first workspace')
    .max(COLLABORATION_LIMITS.nameChars, tooLong('the workspace name', COLLABORATION_LIMITS.nameChars)),
  groupId: z.string().min(1, 'Choose the group of yours that exchanges through the workspace'),
  accessMode: z.enum(WORKSPACE_ACCESS, { message: 'Choose how your organization takes part in the workspace' }),
  contactFirstname: z.string().trim().min(1, 'Enter the contact’s first name').max(CONTACT_CHARS, tooLong('the first name', CONTACT_CHARS)),
  contactLastname: z.string().trim().min(1, 'Enter the contact’s last name').max(CONTACT_CHARS, tooLong('the last name', CONTACT_CHARS)),
  contactEmail: z.string().trim().min(1, 'Enter the contact’s e-mail address').pipe(z.email('Enter an e-mail address such as name@example.com')),
});
export type NewCollaborationInput = z.input<typeof newCollaborationSchema>;
export type NewCollaborationValues = z.output<typeof newCollaborationSchema>;
export const NEW_COLLABORATION_FIELDS = Object.keys(newCollaborationSchema.shape) as (keyof NewCollaborationInput)[];

/** A workspace's choice in the invitation: one of the accesses, or left out. */
export const INVITE_CHOICES = ['none', ...WORKSPACE_ACCESS] as const;
export type InviteChoice = (typeof INVITE_CHOICES)[number];

const { min: MIN_HOURS, max: MAX_HOURS, default: DEFAULT_HOURS } = COLLABORATION_LIMITS.invitationExpirationHours;
export const INVITATION_HOURS = { min: MIN_HOURS, max: MAX_HOURS, default: DEFAULT_HOURS };

/** Hours until the guest can no longer accept: a whole number within the portal's limits (the field gives '' when emptied). */
const expirationHours = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
  if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: `Enter a number of hours, e.g. ${DEFAULT_HOURS}` });
  else if (!Number.isInteger(n)) ctx.addIssue({ code: 'custom', message: 'Enter a whole number of hours' });
  else if (n < MIN_HOURS || n > MAX_HOURS)
    ctx.addIssue({ code: 'custom', message: `Enter from ${MIN_HOURS} to ${MAX_HOURS.toLocaleString('en')} hours (a year)` });
  else return n;
  return z.NEVER;
});

export const inviteSchema = z.object({
  expiration: expirationHours,
  participantPortalId: z.string().trim().min(1, 'Choose the organization to invite').max(64, 'A portal ID has at most 64 characters'),
  // Checked on the field itself, so it is named together with a missing organization.
  workspaces: z
    .record(z.string(), z.enum(INVITE_CHOICES))
    .refine((o) => Object.values(o).some((c) => c !== 'none'), 'Share at least one workspace with the guest'),
});
export type InviteInput = z.input<typeof inviteSchema>;
export type InviteValues = z.output<typeof inviteSchema>;
export const INVITE_FIELDS = ['participantPortalId', 'workspaces', 'expiration'] as const;

/** The invite form's workspaces as the wire wants them: workspace id → access, the left-out ones dropped. */
export function invitedWorkspaces(v: InviteValues): Record<string, WorkspaceAccess> {
  return Object.fromEntries(Object.entries(v.workspaces).filter((e): e is [string, WorkspaceAccess] => e[1] !== 'none'));
}
