/** User types (license types) in words. */
import { USER_LICENSE_TYPES } from '../../shared/contract/users.ts';
import { USER_LICENSE_TYPE_LABELS } from '../../shared/userTypes.ts';

export { USER_LICENSE_TYPES };
export type UserLicenseType = (typeof USER_LICENSE_TYPES)[number];

// Named once in src/shared/userTypes.ts, where the service's refusals read them too.
export const LICENSE_LABELS: Record<UserLicenseType, string> = USER_LICENSE_TYPE_LABELS;

/** The new-member default "apps" (userType of userDefaultSettings) in words. */
export const USER_TYPE_LABELS: Record<'arcgisonly' | 'both', string> = {
  arcgisonly: 'ArcGIS only',
  both: 'ArcGIS and Esri apps',
};

export function licenseLabel(id: string): string {
  return (LICENSE_LABELS as Record<string, string>)[id] ?? id;
}

export const LICENSE_SELECT_DATA = USER_LICENSE_TYPES.map((id) => ({ value: id, label: LICENSE_LABELS[id] }));
