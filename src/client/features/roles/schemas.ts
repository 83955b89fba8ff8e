/** Roles forms and the list's address state, as zod schemas. */
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits.ts';
import { tooLong } from '../../lib/forms.ts';

/** Name and description: the same limits the service enforces (createRole / update), the field named in each message. */
export const roleDetailsSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(LIMITS.roleNameChars, tooLong('the name', LIMITS.roleNameChars)),
  description: z.string().trim().max(LIMITS.roleDescriptionChars, tooLong('the description', LIMITS.roleDescriptionChars)),
});
export type RoleDetailsInput = z.input<typeof roleDetailsSchema>;
export type RoleDetailsValues = z.output<typeof roleDetailsSchema>;
export const ROLE_DETAIL_FIELDS = ['name', 'description'] as const;

export const roleListSchema = z.object({
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(25),
});
export type RoleListState = z.output<typeof roleListSchema>;

const DEFAULTS: RoleListState = { start: 1, num: 25 };

export function parseRoleList(params: URLSearchParams): RoleListState {
  return roleListSchema.parse({ start: params.get('start') ?? undefined, num: params.get('num') ?? undefined });
}

export function roleListToParams(state: RoleListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof RoleListState)[]) {
    if (state[key] !== DEFAULTS[key]) out.set(key, String(state[key]));
  }
  return out;
}
