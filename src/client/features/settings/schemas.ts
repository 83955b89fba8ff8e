/** Settings forms as zod schemas, built on the wire contract's own rules. */
import { z } from 'zod';
import { updatePortalParams } from '../../../shared/contract/portals.ts';
import { defaultValueSchemas } from '../../../shared/contract/userDefaultSettings.ts';
import type { UserDefaultSettings } from '../../api/index.ts';
import { tooMany } from '../../lib/forms.ts';

/** An empty choice means "not set" (sent as an empty value, which clears that default). */
const unset = z.string().transform((v) => v || undefined);

/**
 * New-member defaults. Never an administrator role: the base one is refused here, custom
 * administrator roles are not offered and the portal refuses them too (its words land on the field).
 */
export const defaultsSchema = z.object({
  role: unset
    .pipe(defaultValueSchemas.role.optional())
    .refine((r) => r !== 'org_admin', 'Choose a role that is not an administrator role: new members never start as administrators'),
  userLicenseType: unset.pipe(defaultValueSchemas.userLicenseType.optional()),
  groups: z.array(z.string().max(64)).max(100, tooMany('groups', 100)),
  userType: unset.pipe(defaultValueSchemas.userType.optional()),
});
export type DefaultsInput = z.input<typeof defaultsSchema>;
export type DefaultsValues = z.output<typeof defaultsSchema>;
export const DEFAULTS_FIELDS = ['role', 'userLicenseType', 'groups', 'userType'] as const;

export function defaultsToForm(d: UserDefaultSettings): DefaultsInput {
  return { role: d.role ?? '', userLicenseType: d.userLicenseType ?? '', groups: d.groups ?? [], userType: d.userType ?? '' };
}

/** Organization settings this page shows: the contract's own rule (a whole number, 0–100000). */
export const orgSettingsSchema = z.object({ maxExternalMembersPerGroup: updatePortalParams.shape.maxExternalMembersPerGroup.unwrap() });
export type OrgSettingsInput = z.input<typeof orgSettingsSchema>;
export type OrgSettingsValues = z.output<typeof orgSettingsSchema>;

/** Named once in lib/licenses.ts, where the history's words read it too. */
export { USER_TYPE_LABELS } from '../../lib/licenses.ts';
