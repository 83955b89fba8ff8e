/**
 * Which roles each user type (license type, `userLicenseType`) can hold. One rule for the service,
 * which refuses an incompatible new-member default (role with user type), and for the console,
 * which offers only the roles the chosen user type allows and says why the others are not.
 *
 * As in ArcGIS Online, a user type caps what its member may do, so the rule is on privileges:
 * - Viewer: view only — no creating, editing, sharing, publishing or administering (the Viewer role);
 * - Contributor and Mobile Worker: create, edit and share, but not publish hosted layers or
 *   administer (Viewer, Data Editor and User roles);
 * - Creator and the GIS Professional types: any role.
 */
import { BASE_ROLE_PRIVILEGES, BUILT_IN_ROLES } from './privileges.ts';
import { listPrivileges, missingPrivileges } from './roleGrant.ts';
import { USER_LICENSE_TYPES } from './contract/users.ts';

export type UserLicenseType = (typeof USER_LICENSE_TYPES)[number];

export const USER_LICENSE_TYPE_LABELS: Record<UserLicenseType, string> = {
  creatorUT: 'Creator',
  GISProfessionalBasicUT: 'GIS Professional Basic',
  GISProfessionalStdUT: 'GIS Professional Standard',
  GISProfessionalAdvUT: 'GIS Professional Advanced',
  mobileWorkerUT: 'Mobile Worker',
  contributorUT: 'Contributor',
  viewerUT: 'Viewer',
};

// What viewing needs: the Viewer role, plus the location services a Viewer may use in apps.
const VIEWER_ALLOWED: ReadonlySet<string> = new Set([
  ...BUILT_IN_ROLES[0].privileges,
  'portal:user:viewHostedFeatureServices',
  'portal:user:viewHostedTileServices',
  'premium:user:geocode',
  'premium:user:networkanalysis',
  'premium:user:elevation',
  'premium:user:basemaps',
  'premium:user:demographics',
]);

// A User's privileges, those of the built-in roles and nothing that publishes or administers.
const CONTRIBUTOR_ALLOWED: ReadonlySet<string> = new Set([...VIEWER_ALLOWED, ...BASE_ROLE_PRIVILEGES.org_user, ...BUILT_IN_ROLES.flatMap((r) => r.privileges)]);

const ALLOWED: Partial<Record<UserLicenseType, { allowed: ReadonlySet<string>; scope: string }>> = {
  viewerUT: { allowed: VIEWER_ALLOWED, scope: 'only viewing (roles like Viewer)' },
  contributorUT: { allowed: CONTRIBUTOR_ALLOWED, scope: 'no publishing or administration (roles like Viewer, Data Editor or User)' },
  mobileWorkerUT: { allowed: CONTRIBUTOR_ALLOWED, scope: 'no publishing or administration (roles like Viewer, Data Editor or User)' },
};

export function userLicenseTypeLabel(id: string): string {
  return (USER_LICENSE_TYPE_LABELS as Record<string, string>)[id] ?? id;
}

/** The role's privileges the user type does not allow (administrative ones first); none for an unknown type. */
export function privilegesBeyondUserType(userLicenseType: string, rolePrivileges: Iterable<string>): string[] {
  const rule = ALLOWED[userLicenseType as UserLicenseType];
  if (!rule) return [];
  return missingPrivileges(rule.allowed, rolePrivileges);
}

/** Why a member of this user type cannot hold the role, or null when they can. */
export function userTypeRefusal(userLicenseType: string, role: { name: string; privileges: Iterable<string> }): string | null {
  const beyond = privilegesBeyondUserType(userLicenseType, role.privileges);
  if (!beyond.length) return null;
  const scope = ALLOWED[userLicenseType as UserLicenseType]?.scope;
  return `The ${userLicenseTypeLabel(userLicenseType)} user type allows ${scope}: the role '${role.name}' holds privileges it does not allow (${listPrivileges(beyond, 3)}).`;
}

/** The same, short enough to follow a role's name in a list. */
export function userTypeNote(userLicenseType: string): string {
  return `not with the ${userLicenseTypeLabel(userLicenseType)} user type`;
}
