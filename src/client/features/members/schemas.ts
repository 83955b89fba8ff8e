/** Members forms and the list's address state, as zod schemas. */
import { z } from 'zod';
import { createUserParams, roleParam } from '../../../shared/contract/users.ts';
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

/** The member list's state lives in the address (so it survives reloads and sign-in round trips). */
export const memberListSchema = z.object({
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(10),
  sortField: z.enum(MEMBER_SORT_FIELDS).catch('username'),
  sortOrder: z.enum(['asc', 'desc']).catch('asc'),
  q: z.string().trim().max(256).catch(''),
  role: z.string().trim().max(64).catch(''),
});
export type MemberListState = z.output<typeof memberListSchema>;

const DEFAULTS: MemberListState = { start: 1, num: 10, sortField: 'username', sortOrder: 'asc', q: '', role: '' };

export function parseMemberList(params: URLSearchParams): MemberListState {
  return memberListSchema.parse({
    start: params.get('start') ?? undefined,
    num: params.get('num') ?? undefined,
    sortField: params.get('sortField') ?? undefined,
    sortOrder: params.get('sortOrder') ?? undefined,
    q: params.get('q') ?? undefined,
    role: params.get('role') ?? undefined,
  });
}

/** Only what differs from the defaults goes into the address. */
export function memberListToParams(state: MemberListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof MemberListState)[]) {
    if (state[key] !== DEFAULTS[key]) out.set(key, String(state[key]));
  }
  return out;
}
