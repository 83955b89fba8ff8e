/** User types (license types) in words. */
import { USER_LICENSE_TYPES } from '../../shared/contract/users.ts';

export { USER_LICENSE_TYPES };
export type UserLicenseType = (typeof USER_LICENSE_TYPES)[number];

export const LICENSE_LABELS: Record<UserLicenseType, string> = {
  creatorUT: 'Creator',
  GISProfessionalBasicUT: 'GIS Professional Basic',
  GISProfessionalStdUT: 'GIS Professional Standard',
  GISProfessionalAdvUT: 'GIS Professional Advanced',
  mobileWorkerUT: 'Mobile Worker',
  contributorUT: 'Contributor',
  viewerUT: 'Viewer',
};

/** The new-member default "apps" (userType of userDefaultSettings) in words. */
export const USER_TYPE_LABELS: Record<'arcgisonly' | 'both', string> = {
  arcgisonly: 'ArcGIS only',
  both: 'ArcGIS and Esri apps',
};

export function licenseLabel(id: string): string {
  return (LICENSE_LABELS as Record<string, string>)[id] ?? id;
}

export const LICENSE_SELECT_DATA = USER_LICENSE_TYPES.map((id) => ({ value: id, label: LICENSE_LABELS[id] }));
