/** Groups and their members. */
import { LIMITS } from '../../shared/limits.ts';
import { inBatches, type BatchOptions, type BatchOutcome } from './batches.ts';
import { request, type Params, type RequestOptions } from './request.ts';
import type { GroupRecord, MembershipAccess, MemberType, NotAddedReason, PageEnvelope, PagingParams, SortOrder } from './types.ts';

type ReadOptions = Pick<RequestOptions, 'signal'>;

export const GROUP_SORT_FIELDS = ['title', 'owner', 'created', 'modified'] as const;
export type GroupSortField = (typeof GROUP_SORT_FIELDS)[number];

export interface SearchGroupsParams extends PagingParams {
  /** Free text, or `title:x`, `owner:name`, `orgid:id`, `access:org`, `tags:t` joined with AND; `*` for all. */
  q?: string;
  sortField?: GroupSortField;
  sortOrder?: SortOrder;
}

export interface GroupSearchResult extends PageEnvelope {
  query: string;
  results: GroupRecord[];
}

/** The fields createGroup and update take (update changes only those sent). */
export interface GroupFieldsInput {
  title?: string;
  snippet?: string;
  description?: string;
  tags?: readonly string[];
  access?: GroupRecord['access'];
  isInvitationOnly?: boolean;
  isViewOnly?: boolean;
  autoJoin?: boolean;
  leavingDisallowed?: boolean;
  hiddenMembers?: boolean;
  sortField?: string;
  sortOrder?: SortOrder;
  /** Who may join: `org`, `collaboration`, or `none` (anyone). */
  membershipAccess?: MembershipAccess;
}

export const USERLIST_SORT_FIELDS = ['username', 'fullname', 'joined', 'membertype'] as const;
export type UserlistSortField = (typeof USERLIST_SORT_FIELDS)[number];

export interface GroupUserlistParams extends PagingParams {
  /** Part of a username or full name. */
  name?: string;
  memberType?: MemberType | 'admins';
  sortField?: UserlistSortField;
  sortOrder?: SortOrder;
}

export interface GroupMember {
  username: string;
  fullName: string;
  memberType: MemberType;
  joined: number;
  orgId: string;
}

export interface GroupUserlist extends PageEnvelope {
  owner: { username: string };
  users: GroupMember[];
}

/** `community/groups/<id>/users`: every member's username, in one answer (the owner is among `admins`). */
export interface GroupUsers {
  owner: string;
  admins: string[];
  users: string[];
}

export interface AddGroupUsersResult {
  notAdded: string[];
  /** Why each one was not added (local portal). */
  notAddedReasons?: NotAddedReason[];
}

const seg = encodeURIComponent;
const groupPath = (groupId: string) => `community/groups/${seg(groupId)}`;

/** `GET community/groups`: one page of the groups the caller may see. */
export function searchGroups(params: SearchGroupsParams = {}, options: ReadOptions = {}): Promise<GroupSearchResult> {
  return request<GroupSearchResult>('community/groups', { q: '*', ...params }, { ...options, method: 'GET' });
}

/** `GET community/groups/<id>`: the group, with the caller's membership. */
export function getGroup(groupId: string, options: ReadOptions = {}): Promise<GroupRecord> {
  return request<GroupRecord>(groupPath(groupId), {}, { ...options, method: 'GET' });
}

/**
 * `membershipAccess` as the API takes it (Esri's Hub client): `org` and `collaboration` as they are;
 * anyone as an empty value with `clearEmptyFields=true` on update, and simply left out on create
 * (a new group accepts anyone).
 */
function membershipAccessParams(fields: GroupFieldsInput, creating: boolean): Params {
  const { membershipAccess, ...rest } = fields;
  if (membershipAccess === undefined) return rest;
  if (membershipAccess !== 'none') return { ...rest, membershipAccess };
  return creating ? rest : { ...rest, membershipAccess: '', clearEmptyFields: true };
}

/** `POST community/createGroup` → {success, group}. */
export function createGroup(fields: GroupFieldsInput & { title: string }): Promise<{ success: boolean; group: GroupRecord }> {
  return request<{ success: boolean; group: GroupRecord }>('community/createGroup', membershipAccessParams(fields, true), { method: 'POST' });
}

/** `POST community/groups/<id>/update` (only the fields sent change) → {success, groupId}. */
export function updateGroup(groupId: string, fields: GroupFieldsInput): Promise<{ success: boolean; groupId: string }> {
  return request<{ success: boolean; groupId: string }>(`${groupPath(groupId)}/update`, membershipAccessParams(fields, false), { method: 'POST' });
}

/** `POST community/groups/<id>/delete` → {success, groupId}; a protected group is refused. */
export function deleteGroup(groupId: string): Promise<{ success: boolean; groupId: string }> {
  return request<{ success: boolean; groupId: string }>(`${groupPath(groupId)}/delete`, {}, { method: 'POST' });
}

/** `POST community/groups/<id>/protect` or `/unprotect` → {success, groupId}. */
export function setGroupProtected(groupId: string, value: boolean): Promise<{ success: boolean; groupId: string }> {
  return request<{ success: boolean; groupId: string }>(`${groupPath(groupId)}/${value ? 'protect' : 'unprotect'}`, {}, { method: 'POST' });
}

/**
 * `POST community/groups/<id>/reassign` (ArcGIS "Reassign Group", administrators only) → {success,
 * groupId}: `targetUsername`, a member of the group's organization, becomes its owner.
 */
export function reassignGroup(groupId: string, targetUsername: string): Promise<{ success: boolean; groupId: string }> {
  return request<{ success: boolean; groupId: string }>(`${groupPath(groupId)}/reassign`, { targetUsername }, { method: 'POST' });
}

/** `GET community/groups/<id>/userList` (the documented spelling): one page of the group's members, owner and managers included. */
export function getGroupUserlist(groupId: string, params: GroupUserlistParams = {}, options: ReadOptions = {}): Promise<GroupUserlist> {
  return request<GroupUserlist>(`${groupPath(groupId)}/userList`, { ...params }, { ...options, method: 'GET' });
}

/** `GET community/groups/<id>/users` → {owner, admins, users}: who is in the group, in one request. */
export function getGroupUsers(groupId: string, options: ReadOptions = {}): Promise<GroupUsers> {
  return request<GroupUsers>(`${groupPath(groupId)}/users`, {}, { ...options, method: 'GET' });
}

/**
 * `POST community/groups/<id>/addUsers`: `users` join as members, `admins` as managers — at most 25
 * names in one request. Names that could not be added come back in `notAdded`, with reasons.
 */
export function addGroupUsers(groupId: string, params: { users?: readonly string[]; admins?: readonly string[] }): Promise<AddGroupUsersResult> {
  return request<AddGroupUsersResult>(`${groupPath(groupId)}/addUsers`, { users: params.users ?? [], admins: params.admins ?? [] }, { method: 'POST' });
}

/** `POST community/groups/<id>/removeUsers` → {notRemoved}. At most 25 names in one request. */
export function removeGroupUsers(groupId: string, users: readonly string[]): Promise<{ notRemoved: string[] }> {
  return request<{ notRemoved: string[] }>(`${groupPath(groupId)}/removeUsers`, { users }, { method: 'POST' });
}

/** Names in one addUsers / removeUsers request: the portal refuses more (ORG_3100). */
export const USERS_PER_GROUP_REQUEST = LIMITS.usersPerAddToGroupRequest;

/** addUsers for any number of names (`as`: members or managers), 25 a request; an outcome per request. */
export function addUsersToGroup(
  groupId: string,
  names: readonly string[],
  as: 'users' | 'admins',
  options: BatchOptions = {},
): Promise<BatchOutcome<string, AddGroupUsersResult>[]> {
  return inBatches(names, USERS_PER_GROUP_REQUEST, (batch) => addGroupUsers(groupId, { [as]: batch }), options);
}

/** removeUsers for any number of names, 25 a request; an outcome per request. */
export function removeUsersFromGroup(
  groupId: string,
  names: readonly string[],
  options: BatchOptions = {},
): Promise<BatchOutcome<string, { notRemoved: string[] }>[]> {
  return inBatches(names, USERS_PER_GROUP_REQUEST, (batch) => removeGroupUsers(groupId, batch), options);
}

/** `POST community/groups/<id>/updateUsers`: `admins` become managers, `users` plain members → {results}. */
export function updateGroupUsers(
  groupId: string,
  params: { users?: readonly string[]; admins?: readonly string[] },
): Promise<{ results: { username: string; success: boolean }[] }> {
  return request<{ results: { username: string; success: boolean }[] }>(
    `${groupPath(groupId)}/updateUsers`,
    { users: params.users ?? [], admins: params.admins ?? [] },
    { method: 'POST' },
  );
}
