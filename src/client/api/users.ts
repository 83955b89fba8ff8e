/** Members: read, list, search, create, change role and user type, disable, enable, delete. */
import { inBatches, type BatchOptions, type BatchOutcome } from './batches.ts';
import { request, type RequestOptions } from './request.ts';
import type { CreateUserParams, PageEnvelope, PagingParams, PortalUser, SortOrder } from './types.ts';

type ReadOptions = Pick<RequestOptions, 'signal'>;

/**
 * The documented sort fields, then this portal's two (`userlicensetype`, `status`): a portal without
 * the local extras is not asked to sort by those.
 */
export const MEMBER_SORT_FIELDS = ['username', 'fullname', 'created', 'lastlogin', 'role', 'userlicensetype', 'status'] as const;
export type MemberSortField = (typeof MEMBER_SORT_FIELDS)[number];
export const LOCAL_MEMBER_SORT_FIELDS: readonly MemberSortField[] = ['userlicensetype', 'status'];

/**
 * This portal's member filters (local parameters, dropped by portals without the extras): status,
 * one user type, and last sign-in and creation dates as epoch ms, each bound exclusive.
 */
export interface MemberFilterParams {
  disabled?: boolean;
  userLicenseType?: string;
  lastLoginBefore?: number;
  lastLoginAfter?: number;
  createdBefore?: number;
  createdAfter?: number;
}

export interface ListMembersParams extends PagingParams, MemberFilterParams {
  sortField?: MemberSortField;
  sortOrder?: SortOrder;
  /** A base role (org_admin, org_publisher, org_user) or a custom role id. */
  role?: string;
  /** Free text over username, full name and email (local-portal convenience). */
  q?: string;
  username?: string;
  fullname?: string;
}

export interface MemberPage extends PageEnvelope {
  users: PortalUser[];
}

/** The search's `q`, paging and sort; this portal's member filters go beside it as local parameters. */
export interface MemberSearchParams extends PagingParams, MemberFilterParams {
  q?: string;
  sortField?: MemberSortField;
  sortOrder?: SortOrder;
}

export interface MemberSearchResult extends PageEnvelope {
  query: string;
  results: PortalUser[];
}

const seg = encodeURIComponent;

/** `GET community/users/<username>`. */
export function getUser(username: string, options: ReadOptions = {}): Promise<PortalUser> {
  return request<PortalUser>(`community/users/${seg(username)}`, {}, { ...options, method: 'GET' });
}

/** `GET portals/<orgId>/users`: one page of the organization's members. */
export function listMembers(orgId: string, params: ListMembersParams = {}, options: ReadOptions = {}): Promise<MemberPage> {
  return request<MemberPage>(`portals/${seg(orgId)}/users`, { ...params }, { ...options, method: 'GET' });
}

/** `GET portals/self/users/search`: member search with the `q` syntax (`username:x AND role:org_user`). */
export function searchMembers(params: MemberSearchParams = {}, options: ReadOptions = {}): Promise<MemberSearchResult> {
  return request<MemberSearchResult>('portals/self/users/search', { q: '*', ...params }, { ...options, method: 'GET' });
}

/** A username as a search value: quoted unless it is a plain word. */
function searchValue(name: string): string | null {
  if (/["\\]/.test(name)) return null;
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `"${name}"`;
}

/** Names looked up in one member search: the query stays short and the answer fits one page. */
export const MEMBER_NAMES_PER_SEARCH = 25;
/** The most results one search answer holds. */
const SEARCH_PAGE = 100;

/**
 * Looks usernames up among the organization's members (`username:(a OR b …)`), 25 names a search;
 * a crowded answer is paged. Each name (lower case) maps to its member, or null when not found.
 */
export async function findMembersByUsername(names: readonly string[], { signal }: ReadOptions = {}): Promise<Map<string, PortalUser | null>> {
  const found = new Map<string, PortalUser | null>();
  const askable = names.filter((n) => {
    if (searchValue(n) !== null) return true;
    found.set(n.toLowerCase(), null);
    return false;
  });
  for (let i = 0; i < askable.length; i += MEMBER_NAMES_PER_SEARCH) {
    const batch = askable.slice(i, i + MEMBER_NAMES_PER_SEARCH);
    const q = `username:(${batch.map(searchValue).join(' OR ')})`;
    const wanted = new Set(batch.map((n) => n.toLowerCase()));
    for (let start = 1; start > 0;) {
      const page = await searchMembers({ q, start, num: SEARCH_PAGE }, { signal });
      for (const u of page.results) if (wanted.has(u.username.toLowerCase())) found.set(u.username.toLowerCase(), u);
      // Substring matches can crowd a page (`ann` finds `joanna`): read on only while a wanted name is missing.
      start = [...wanted].every((k) => found.has(k)) ? -1 : page.nextStart;
    }
    for (const key of wanted) if (!found.has(key)) found.set(key, null);
  }
  return found;
}

/**
 * `POST /portaladmin/security/users/createUser` → {status:"success"} ("Create User"; this portal
 * adds the username, other portals do not, so the name sent stands in). Empty optional fields are left out.
 */
export async function createUser(params: CreateUserParams): Promise<{ status: string; username: string }> {
  const cleaned = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const answer = await request<{ status: string; username?: string }>('security/users/createUser', cleaned, { method: 'POST', root: 'admin' });
  return { ...answer, username: answer.username ?? params.username };
}

/**
 * `POST portals/<orgId>/updateUserRole` → {success}. The member goes as `user`, the name the
 * public documentation gives ("Update User Role"); the role as `role`: a base role or a custom role id.
 */
export function updateUserRole(orgId: string, params: { username: string; role: string }): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`portals/${seg(orgId)}/updateUserRole`, { user: params.username, role: params.role }, { method: 'POST' });
}

/** One member's outcome in Update User License Type's answer (`error` is this portal's extra: ArcGIS answers only the status). */
export interface LicenseTypeResult {
  username: string;
  status: boolean;
  error?: { code: number; message: string };
}

/** Names in one updateUserLicenseType request: the portal takes at most 100. */
export const USERS_PER_LICENSE_REQUEST = 100;

/**
 * `POST portals/<orgId>/updateUserLicenseType` ("Update User License Type"): `users` comma-separated,
 * `userLicenseType` the new type → `{results:[{username, status}]}`.
 */
export function updateUserLicenseType(orgId: string, users: readonly string[], userLicenseType: string): Promise<{ results: LicenseTypeResult[] }> {
  return request<{ results: LicenseTypeResult[] }>(
    `portals/${seg(orgId)}/updateUserLicenseType`,
    { users: users.join(','), userLicenseType },
    { method: 'POST' },
  );
}

/** updateUserLicenseType for any number of names, 100 a request; an outcome per request. */
export function setUserLicenseTypes(
  orgId: string,
  names: readonly string[],
  userLicenseType: string,
  options: BatchOptions = {},
): Promise<BatchOutcome<string, { results: LicenseTypeResult[] }>[]> {
  return inBatches(names, USERS_PER_LICENSE_REQUEST, (batch) => updateUserLicenseType(orgId, batch, userLicenseType), options);
}

/**
 * `POST community/users/<user>/delete` ("Delete User"): refused while the member owns items or
 * groups, with the portal's reason; one member a request, so each refusal keeps its own words.
 */
export function deleteUser(username: string): Promise<{ success: boolean; username: string }> {
  return request<{ success: boolean; username: string }>(`community/users/${seg(username)}/delete`, {}, { method: 'POST' });
}

/**
 * `POST community/users/<user>/disable` or `/enable` ("Disable" / "Enable" in the public reference):
 * the member cannot sign in while disabled, and loses every session they had.
 */
export function setMemberDisabled(username: string, disabled: boolean): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(`community/users/${seg(username)}/${disabled ? 'disable' : 'enable'}`, {}, { method: 'POST' });
}

/**
 * `POST community/users/<user>/update` ("Update User") by an administrator: only the fields sent
 * change. `password` sets a new password for a member of the "arcgis" identity provider, and ends
 * every session they held → `{success, username}`.
 */
export function updateUser(username: string, fields: { password?: string }): Promise<{ success: boolean; username: string }> {
  return request<{ success: boolean; username: string }>(`community/users/${seg(username)}/update`, { ...fields }, { method: 'POST' });
}

/**
 * A local operation of this portal (hidden on others): `POST community/users/<user>/unlockSignIn`
 * lifts every sign-in wait on the member (default administrators only; docs/security.md).
 */
export function unlockSignIn(username: string): Promise<{ success: boolean; username: string; sourcesUnlocked: number }> {
  return request(`community/users/${seg(username)}/unlockSignIn`, {}, { method: 'POST' });
}
