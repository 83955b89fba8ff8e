/**
 * Member lifecycle, a local extra of this portal (docs/rest-operations.md, "Member lifecycle"): an
 * expiration date on a member (disabled at that moment, warned some days before), and inactivity
 * policies (members not signed in for N days are warned, then disabled or moved to another role and
 * user type after M days). ArcGIS has neither, so every operation here is local-only.
 */
import { z } from 'zod';
import { privileges, type Authority } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { commaList, pagingParams, wireInt } from './wire.ts';
import { USER_LICENSE_TYPES } from './users.ts';

/** Days, as the policy form and the service both bound them. */
export const LIFECYCLE_LIMITS = {
  maxDays: 3650,
  titleChars: 120,
  /** Members per set/clear request, as other bulk member operations. */
  usernamesPerRequest: 100,
  /** Members a preview or a run lists (a run touches all of them; the answer names this many). */
  previewListed: 200,
} as const;

const usernames = commaList.pipe(
  z
    .array(z.string().max(LIMITS.usernameMaxChars))
    .min(1, 'is required')
    .max(LIFECYCLE_LIMITS.usernamesPerRequest, `at most ${LIFECYCLE_LIMITS.usernamesPerRequest} members per request`),
);

export const setExpirationParams = z.object({
  usernames,
  /** Epoch ms; must be in the future (checked against the portal's clock). */
  expiration: wireInt(1, 8_640_000_000_000_000),
});
export const clearExpirationParams = z.object({ usernames });
export const expirationsParams = pagingParams;

export const POLICY_ACTIONS = ['disable', 'move'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

const days = wireInt(1, LIFECYCLE_LIMITS.maxDays);

/** A policy as the form and createPolicy/update send it; `role` and `userLicenseType` only for `move`. */
export const policyFields = z.object({
  title: z.string().trim().min(1, 'is required').max(LIFECYCLE_LIMITS.titleChars),
  warnAfterDays: days,
  actAfterDays: days,
  action: z.enum(POLICY_ACTIONS),
  role: z.string().max(64).optional(),
  userLicenseType: z.enum(USER_LICENSE_TYPES).optional(),
});

/** Where the fields disagree with each other, by field: the form and the service say the same. */
export function policyFieldProblems(p: Pick<z.output<typeof policyFields>, 'warnAfterDays' | 'actAfterDays' | 'action' | 'role' | 'userLicenseType'>) {
  const problems: { field: 'actAfterDays' | 'role' | 'userLicenseType'; message: string }[] = [];
  if (p.actAfterDays <= p.warnAfterDays) problems.push({ field: 'actAfterDays', message: 'must be more than the days before the warning' });
  if (p.action === 'move' && !p.role) problems.push({ field: 'role', message: 'is required to move members' });
  if (p.action === 'move' && !p.userLicenseType) problems.push({ field: 'userLicenseType', message: 'is required to move members' });
  return problems;
}

export const createPolicyParams = policyFields.superRefine((p, ctx) => {
  for (const { field, message } of policyFieldProblems(p)) ctx.addIssue({ code: 'custom', path: [field], message });
});

export interface UpcomingExpiration {
  username: string;
  fullName: string;
  expiration: number;
  /** The warning event went out (it does `warningDays` before the expiration). */
  warned: boolean;
}

export interface ExpirationsAnswer {
  total: number;
  start: number;
  num: number;
  nextStart: number;
  warningDays: number;
  expirations: UpcomingExpiration[];
}

export interface ExpirationResult {
  username: string;
  status: boolean;
  error?: { code: number; message: string };
}

export interface InactivityPolicy {
  id: string;
  title: string;
  warnAfterDays: number;
  actAfterDays: number;
  action: PolicyAction;
  /** `move`: the role (base role or custom role id) and user type members are moved to. */
  role: string | null;
  userLicenseType: string | null;
  active: boolean;
  /** When the next run is due (epoch ms), null while switched off. */
  nextRun: number | null;
  created: number;
  modified: number;
  /** Members warned by this policy who have not signed in since. */
  warnedCount: number;
}

export interface PreviewMember {
  username: string;
  fullName: string;
  /** Last sign-in, or the account's creation when they never signed in (epoch ms). */
  inactiveSince: number;
}

/** Who a policy would touch now: warned, acted on, and left out (with why). */
export interface PolicyPreview {
  warn: PreviewMember[];
  act: PreviewMember[];
  skipped: (PreviewMember & { reason: string })[];
  counts: { warn: number; act: number; skipped: number };
}

export interface PolicyRun {
  id: string;
  ranAt: number;
  warned: string[];
  acted: string[];
  undone: number | null;
  undoneBy: string | null;
}

// Each entry its own object: the operation table tells operations apart by their authority's identity.
const view = () => privileges('portal:admin:viewUsers');
/** Setting an expiration schedules a disable: the privilege that disables. */
const expire = () => privileges('portal:admin:disableUsers');
/** A policy may disable members or change their role and user type: it needs every privilege those take. */
const managePolicies = () => privileges('portal:admin:viewUsers', 'portal:admin:disableUsers', 'portal:admin:changeUserRoles', 'portal:admin:manageLicenses');

export const MEMBER_LIFECYCLE_OPERATIONS = {
  setExpiration: expire(),
  clearExpiration: expire(),
  expirations: view(),
  inactivityPolicies: view(),
  inactivityPolicy: view(),
  previewInactivityPolicy: view(),
  inactivityPolicyRuns: view(),
  createInactivityPolicy: managePolicies(),
  updateInactivityPolicy: managePolicies(),
  deleteInactivityPolicy: managePolicies(),
  enableInactivityPolicy: managePolicies(),
  disableInactivityPolicy: managePolicies(),
  undoInactivityPolicyRun: managePolicies(),
} as const satisfies Record<string, Authority>;
