/** The lifecycle forms, as zod schemas: the policy fields are the service's own (shared contract). */
import { z } from 'zod';
import { LIFECYCLE_LIMITS, POLICY_ACTIONS, policyFieldProblems } from '../../../../shared/contract/memberLifecycle.ts';
import { USER_LICENSE_TYPES } from '../../../../shared/contract/users.ts';

const days = z.coerce
  .number({ message: 'must be a number of days' })
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(LIFECYCLE_LIMITS.maxDays, `must be at most ${LIFECYCLE_LIMITS.maxDays} days`);

export const policyFormSchema = z
  .object({
    title: z.string().trim().min(1, 'Give the policy a title').max(LIFECYCLE_LIMITS.titleChars),
    warnAfterDays: days,
    actAfterDays: days,
    action: z.enum(POLICY_ACTIONS),
    role: z.string(),
    userLicenseType: z.enum(['', ...USER_LICENSE_TYPES]),
  })
  .superRefine((p, ctx) => {
    const problems = policyFieldProblems({ ...p, role: p.role || undefined, userLicenseType: p.userLicenseType || undefined });
    for (const { field, message } of problems) ctx.addIssue({ code: 'custom', path: [field], message: `This ${message}` });
  });
export type PolicyFormInput = z.input<typeof policyFormSchema>;
export type PolicyFormValues = z.output<typeof policyFormSchema>;

/** A day in the future (YYYY-MM-DD, the browser's date field): the member is disabled at its start, local time. */
export const expiryFormSchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date')
    .refine((d) => new Date(`${d}T00:00`).getTime() > Date.now(), 'Choose a date after today'),
});
export type ExpiryFormValues = z.output<typeof expiryFormSchema>;

export const expiryOf = (date: string) => new Date(`${date}T00:00`).getTime();
