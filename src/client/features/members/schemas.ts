/** Members forms and the list's address state, as zod schemas. */
import { z } from 'zod';
import { createUserParams, passwordSchema, roleParam, USER_LICENSE_TYPES } from '../../../shared/contract/users.ts';
import { MEMBER_SORT_FIELDS } from '../../api/index.ts';

/** "Add member": exactly what createUser accepts (same username and password rules as the service). */
export const addMemberSchema = createUserParams;
export type AddMemberInput = z.input<typeof addMemberSchema>;
export type AddMemberValues = z.output<typeof addMemberSchema>;
/** The fields the form shows; the service's fieldErrors for these land beside them. */
export const ADD_MEMBER_FIELDS = ['username', 'password', 'firstname', 'lastname', 'email', 'role', 'userLicenseTypeId'] as const;

/** "Change role": a base role or a custom role id. */
export const changeRoleSchema = z.object({ role: roleParam });
export type ChangeRoleValues = z.output<typeof changeRoleSchema>;

export const PAGE_SIZES = [10, 25, 50, 100] as const;

const isoDay = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/)
  .catch('');

/** The member list's state lives in the address (so it survives reloads, can be shared, and outlives sign-in round trips). */
export const memberListSchema = z.object({
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(10),
  sortField: z.enum(MEMBER_SORT_FIELDS).catch('username'),
  sortOrder: z.enum(['asc', 'desc']).catch('asc'),
  q: z.string().trim().max(256).catch(''),
  role: z.string().trim().max(64).catch(''),
  status: z.enum(['', 'active', 'disabled']).catch(''),
  userType: z.enum(['', ...USER_LICENSE_TYPES]).catch(''),
  /** Days (YYYY-MM-DD, UTC): last sign-in before the day began, or after it ended; the same for creation. */
  lastLoginBefore: isoDay,
  lastLoginAfter: isoDay,
  createdBefore: isoDay,
  createdAfter: isoDay,
});
export type MemberListState = z.output<typeof memberListSchema>;

export const MEMBER_LIST_DEFAULTS: MemberListState = {
  start: 1,
  num: 10,
  sortField: 'username',
  sortOrder: 'asc',
  q: '',
  role: '',
  status: '',
  userType: '',
  lastLoginBefore: '',
  lastLoginAfter: '',
  createdBefore: '',
  createdAfter: '',
};
const KEYS = Object.keys(MEMBER_LIST_DEFAULTS) as (keyof MemberListState)[];

export function parseMemberList(params: URLSearchParams): MemberListState {
  return memberListSchema.parse(Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? undefined])));
}

/** Only what differs from the defaults goes into the address. */
export function memberListToParams(state: MemberListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of KEYS) if (state[key] !== MEMBER_LIST_DEFAULTS[key]) out.set(key, String(state[key]));
  return out;
}

/** "Change user type": one of the documented user types. */
export const changeUserTypeSchema = z.object({ userLicenseType: z.enum(USER_LICENSE_TYPES, 'pick a user type') });
export type ChangeUserTypeValues = z.output<typeof changeUserTypeSchema>;

/** "Reset password": the service's password policy, typed twice. */
export const resetPasswordSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'must be the same as the new password' });
export type ResetPasswordValues = z.output<typeof resetPasswordSchema>;
