/** Members: the user record, sign-in, member lists, account creation and role changes. */
import { z } from 'zod';
import { defaultAdmin, ownerOr, own, privileges, visible, type Authority, type AuthorityHolder } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { BASE_ROLES, type Privilege } from '../privileges.ts';
import { commaList, pagingParams, sortOrder, wireBool, wireInt } from './wire.ts';

export const usernameSchema = z
  .string()
  .trim()
  .min(LIMITS.usernameMinChars, `must be at least ${LIMITS.usernameMinChars} characters`)
  .max(LIMITS.usernameMaxChars, `must be at most ${LIMITS.usernameMaxChars} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/, 'may contain only letters, digits and . _ @ -, and must start with a letter or digit');

/**
 * The password policy (OWASP ASVS 6.2.1): at least 8 characters with a letter and a digit, and
 * not the username. The service also refuses common passwords (a list kept on the server).
 */
export const passwordSchema = z
  .string()
  .min(LIMITS.passwordMinChars, `must be at least ${LIMITS.passwordMinChars} characters`)
  .max(LIMITS.passwordMaxChars, `must be at most ${LIMITS.passwordMaxChars} characters`)
  .regex(/[A-Za-z]/, 'must contain a letter')
  .regex(/[0-9]/, 'must contain a digit');

/** A role as `updateUserRole`/`createUser` take it: a base role or a custom role id. */
/**
 * How deep ArcGIS Online pages a search: "only the first 10,000 results can be paginated" (REST API
 * "Considerations and limitations", Search). The local portal answers so with its extras off
 * (areas/users/searchCap.ts); the console reads past it in parts (api/allMembers.ts).
 */
export const ARCGIS_SEARCH_PAGING_CAP = 10_000;

export const roleParam = z.string().trim().min(1, 'is required').max(64);
export const isBaseRole = (role: string): role is (typeof BASE_ROLES)[number] => (BASE_ROLES as readonly string[]).includes(role);

/** Who may see a member's profile (the user record's `access`). */
export const USER_ACCESS = ['private', 'org', 'public'] as const;

export const USER_LICENSE_TYPES = [
  'creatorUT',
  'GISProfessionalBasicUT',
  'GISProfessionalStdUT',
  'GISProfessionalAdvUT',
  'mobileWorkerUT',
  'contributorUT',
  'viewerUT',
] as const;

export const generateTokenParams = z.object({
  username: z.string().min(1, 'is required').max(LIMITS.usernameMaxChars),
  password: z.string().min(1, 'is required').max(LIMITS.passwordMaxChars),
  expiration: wireInt(1, Number.MAX_SAFE_INTEGER).optional(),
  client: z.enum(['referer', 'requestip', 'ip']).optional(),
  referer: z.string().max(2048).optional(),
  ip: z.string().max(64).optional(),
});

export const revokeTokenParams = z.object({ auth_token: z.string().min(1).max(512) });

const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

export const createUserParams = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    firstname: optionalText(LIMITS.nameMaxChars),
    lastname: optionalText(LIMITS.nameMaxChars),
    fullname: optionalText(LIMITS.nameMaxChars * 2 + 1),
    email: z.string().trim().max(LIMITS.emailMaxChars).pipe(z.email('must be a valid email address')),
    role: roleParam.optional(),
    userLicenseTypeId: z.enum(USER_LICENSE_TYPES).optional(),
    description: optionalText(LIMITS.userDescriptionChars),
    provider: z.literal('arcgis').optional(),
  })
  .refine((p) => p.password.toLowerCase() !== p.username.toLowerCase(), {
    path: ['password'],
    message: 'must not be the same as the username',
  });
export type CreateUserParams = z.input<typeof createUserParams>;

/**
 * `updateUserRole`: the member travels as `user` (the documented name, "Update User Role");
 * `username` is still accepted because earlier versions of this console sent it.
 */
export const updateUserRoleParams = z
  .object({
    user: z.string().min(1, 'is required').max(LIMITS.usernameMaxChars).optional(),
    username: z.string().min(1, 'is required').max(LIMITS.usernameMaxChars).optional(),
    role: roleParam,
  })
  .transform(({ user, username, role }, ctx) => {
    const member = user ?? username;
    if (!member) {
      ctx.addIssue({ code: 'custom', path: ['user'], message: 'is required' });
      return z.NEVER;
    }
    return { username: member, role };
  });

/**
 * `updateUserLicenseType`: `users` as a comma-separated list (or a JSON array, as the Python API
 * sends it), at most 100 names per request so one call stays one short transaction.
 */
export const updateUserLicenseTypeParams = z.object({
  users: commaList.pipe(z.array(z.string().max(LIMITS.usernameMaxChars)).min(1, 'is required').max(100, 'at most 100 members per request')),
  userLicenseType: z.enum(USER_LICENSE_TYPES),
});

/**
 * Update User (`community/users/<u>/update`, POST): only the properties sent change. The profile
 * fields the reference lists (description, tags, access, preferredView, culture, region, units) and,
 * for the "arcgis" identity provider, the names and `password`. `fullname` (the Enterprise
 * administrator API's spelling) is taken as `fullName`. Tags arrive comma-joined (rest-js).
 */
export const updateUserParams = z
  .object({
    fullName: optionalText(LIMITS.nameMaxChars * 2 + 1),
    fullname: optionalText(LIMITS.nameMaxChars * 2 + 1),
    firstName: optionalText(LIMITS.nameMaxChars),
    lastName: optionalText(LIMITS.nameMaxChars),
    description: z.string().max(LIMITS.userDescriptionChars, `must be at most ${LIMITS.userDescriptionChars} characters`).optional(),
    tags: commaList.pipe(z.array(z.string().max(256, 'each tag must be at most 256 characters')).max(128, 'at most 128 tags')).optional(),
    access: z.enum(USER_ACCESS).optional(),
    preferredView: z.enum(['Web', 'GIS', 'null']).optional(),
    culture: z
      .string()
      .trim()
      .regex(/^([a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*)?$/, 'must be a language code such as en or pt-BR')
      .optional(),
    region: z
      .string()
      .trim()
      .regex(/^([A-Za-z]{2}|WO)?$/, 'must be a two-letter region code')
      .optional(),
    units: z.enum(['english', 'metric']).optional(),
    password: passwordSchema.optional(),
  })
  .transform(({ fullname, ...p }) => ({ ...p, fullName: p.fullName ?? fullname }));
export type UpdateUserParams = z.output<typeof updateUserParams>;

/**
 * Remove Users (`portals/<orgId>/removeUsers`): `users` comma-separated (or a JSON array), at most
 * 100 names per request, as updateUserLicenseType takes them.
 */
export const removeUsersParams = z.object({
  users: commaList.pipe(z.array(z.string().max(LIMITS.usernameMaxChars)).min(1, 'is required').max(100, 'at most 100 members per request')),
});

/**
 * The documented sort fields of the organization's users (username, fullname, created, lastlogin,
 * mfaenabled, level, role), and two of this portal's: `userlicensetype` (the user type itself; `level`
 * only tells Viewer from the rest) and `status` (enabled members first in ascending order).
 */
export const USER_SORT_FIELDS = ['username', 'fullname', 'created', 'lastlogin', 'mfaenabled', 'level', 'role', 'userlicensetype', 'status'] as const;

const epochMs = wireInt(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

/**
 * Member filters this portal adds to every member list and search (local parameters, ignored with
 * LOCAL_EXTRAS=off): status, user types, and last sign-in and creation dates as epoch ms, each bound
 * exclusive. A member who never signed in (`lastLogin` -1) is before any date.
 */
export const memberFilterParams = z.object({
  disabled: wireBool.optional(),
  userLicenseType: commaList.pipe(z.array(z.enum(USER_LICENSE_TYPES)).max(USER_LICENSE_TYPES.length)).optional(),
  lastLoginBefore: epochMs.optional(),
  lastLoginAfter: epochMs.optional(),
  createdBefore: epochMs.optional(),
  createdAfter: epochMs.optional(),
});
export const MEMBER_FILTER_PARAMS = Object.keys(memberFilterParams.shape) as readonly string[];

const userSortField = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(USER_SORT_FIELDS))
  .default('username');

export const listUsersParams = pagingParams.extend({
  ...memberFilterParams.shape,
  sortField: userSortField,
  sortOrder,
  provider: z.string().max(32).optional(),
  role: z.string().max(64).optional(),
  fullname: z.string().max(256).optional(),
  username: z.string().max(256).optional(),
  firstname: z.string().max(256).optional(),
  lastname: z.string().max(256).optional(),
  applyFilterIntersection: wireBool.optional(),
  /** Local-portal convenience: free text over username, full name and email. */
  q: z.string().max(1024).optional(),
  roleIds: commaList.optional(),
});

export const searchUsersParams = pagingParams.extend({
  ...memberFilterParams.shape,
  q: z.string().max(4096).default('*'),
  sortField: userSortField,
  sortOrder,
});

/** The user record (facts §2.3) as the service returns it. */
export interface PortalUser {
  username: string;
  id: string;
  fullName: string;
  firstName: string;
  lastName: string;
  description: string | null;
  email?: string;
  userType: 'arcgisonly' | 'both';
  idpUsername: string | null;
  favGroupId: string | null;
  lastLogin: number;
  mfaEnabled: boolean;
  storageUsage: number;
  storageQuota: number;
  orgId: string;
  role: 'org_admin' | 'org_publisher' | 'org_user';
  roleId?: string;
  privileges: string[];
  level: '1' | '2';
  userLicenseTypeId: string;
  disabled: boolean;
  tags: string[];
  culture: string | null;
  region: string | null;
  units: string;
  /** The content view the member chose (Update User's `preferredView`): `Web`, `GIS` or null. */
  preferredView: string | null;
  thumbnail: string | null;
  access: 'private' | 'org' | 'public';
  created: number;
  modified: number;
  provider: 'arcgis';
  groups?: unknown[];
}

export interface TokenResponse {
  token: string;
  expires: number;
  ssl: boolean;
}

/**
 * Who may call each member operation (`community/self`, `community/users/…`, `portals/<orgId>/users`…):
 * members are visible within their organization (viewUsers widens what of them is shown), and each
 * administrative action names its privilege. The service declares its routes with these entries;
 * the console asks the same ones (client lib/can.ts).
 */
export const MEMBER_OPERATIONS = {
  self: own(),
  user: visible('portal:admin:viewUsers'),
  /** The member, or whoever may view the organization's items (they see every item the tags come from). */
  userTags: ownerOr('portal:admin:viewItems'),
  searchCommunityUsers: visible('portal:admin:viewUsers'),
  orgUsers: visible('portal:admin:viewUsers'),
  searchOrgUsers: visible('portal:admin:viewUsers'),
  updateUserRole: privileges('portal:admin:changeUserRoles'),
  updateUserLicenseType: privileges('portal:admin:manageLicenses'),
  /** The member's own profile, or another member's by whoever holds portal:admin:updateUsers ("Update member accounts"). */
  updateUser: ownerOr('portal:admin:updateUsers'),
  disableUser: privileges('portal:admin:disableUsers'),
  enableUser: privileges('portal:admin:disableUsers'),
  deleteUser: privileges('portal:admin:deleteUsers'),
  /** Remove Users (`portals/<orgId>/removeUsers`): several members deleted as deleteUser deletes one. */
  removeUsers: privileges('portal:admin:deleteUsers'),
  createUser: privileges('portal:admin:inviteUsers'),
  /** Lifting the sign-in waits on a member (a local extra; docs/security.md "Sign-in throttling"). */
  unlockSignIn: defaultAdmin(),
} as const satisfies Record<string, Authority>;

/** The operations that act on another member's account, where the rules of memberActionRefusal apply too. */
export const MEMBER_ACCOUNT_OPERATIONS = [
  'updateUserRole',
  'disableUser',
  'enableUser',
  'deleteUser',
] as const satisfies readonly (keyof typeof MEMBER_OPERATIONS)[];

/**
 * An administrator's account: org_admin without a custom role. A custom role holding an
 * administrative privilege is org_admin on the wire too, and is not one (facts §1.9).
 */
export const isAdministratorAccount = (m: { role: string; roleId?: string | null }): boolean => m.role === 'org_admin' && !m.roleId;

/** The member an action on an account falls on, as its rules read them. */
export interface AccountActedOn {
  /** The actor's own account. */
  own: boolean;
  /** An administrator's account (isAdministratorAccount). */
  administrator: boolean;
}

/**
 * Why `actor` may not disable, enable, delete or change the role of this account beyond the
 * operation's privilege, or null: nobody acts so on their own account, and an administrator's
 * account is acted on only by a default administrator. Each half words the refusal.
 */
export function memberActionRefusal(actor: Pick<AuthorityHolder, 'isDefaultAdmin'>, account: AccountActedOn): 'ownAccount' | 'administrator' | null {
  if (account.own) return 'ownAccount';
  if (account.administrator && !actor.isDefaultAdmin) return 'administrator';
  return null;
}

/** What lets a member see the organization's members: either of these (members with viewOrgUsers, administrators with viewUsers). */
export const VIEW_MEMBERS_PRIVILEGES = ['portal:user:viewOrgUsers', 'portal:admin:viewUsers'] as const satisfies readonly Privilege[];

/** Whether a member holding what `holds` says may see the organization's members (the service's member lists, the console's Members page). */
export const seesOrgMembers = (holds: (privilege: Privilege) => boolean): boolean => VIEW_MEMBERS_PRIVILEGES.some(holds);
