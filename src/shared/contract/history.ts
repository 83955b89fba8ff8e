/**
 * `portals/<orgId>/history` (ArcGIS REST API, "Portal History"): the organization's event log,
 * read by administrators. Names follow the public documentation; where it is silent the choice
 * is ours and docs/history.md says so (marked "local" below).
 */
import { z } from 'zod';
import { commaList, wireBool } from './wire.ts';
import { privileges, type Authority } from '../authority.ts';

// ---------------------------------------------------------------- target types (idType)

/**
 * The documented target type codes: a organization, c collaboration, cp collaboration participant,
 * cpg collaboration participant group, cw collaboration workspace, cwp collaboration workspace
 * participant, g group, i item, idp identity provider, inv invitation, r role, u user.
 */
export const DOCUMENTED_ID_TYPES = ['a', 'c', 'cp', 'cpg', 'cw', 'cwp', 'g', 'i', 'idp', 'inv', 'r', 'u'] as const;
/** Local codes for targets the documentation has no code for: w webhook (organization or service), t scheduled task. */
export const LOCAL_ID_TYPES = ['w', 't'] as const;
export const HISTORY_ID_TYPES = [...DOCUMENTED_ID_TYPES, ...LOCAL_ID_TYPES] as const;
export type HistoryIdType = (typeof HISTORY_ID_TYPES)[number];

export const ID_TYPE_LABELS: Record<HistoryIdType, string> = {
  a: 'organization',
  c: 'collaboration',
  cp: 'collaboration participant',
  cpg: 'collaboration participant group',
  cw: 'collaboration workspace',
  cwp: 'collaboration workspace participant',
  g: 'group',
  i: 'item',
  idp: 'identity provider',
  inv: 'invitation',
  r: 'role',
  u: 'user',
  w: 'webhook',
  t: 'scheduled task',
};

// ---------------------------------------------------------------- actions

/** The documented action values (the `actions` filter and each event's `action`). */
export const HISTORY_ACTIONS = [
  'add',
  'addusers',
  'create',
  'delete',
  'removeusers',
  'share',
  'unshare',
  'update',
  'failedlogin',
  'login',
  'updateUsers',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/**
 * Local: the service's own operation behind an event, finer than `action` (a reassign, a move and
 * a role change are all `update`). Each event carries it as `operation`; the `actions` filter
 * accepts these names too. Additions only.
 */
export const HISTORY_OPERATIONS = [
  // items
  'addItem',
  'updateItem',
  'deleteItem',
  'restoreItem',
  'shareItem',
  'unshareItem',
  'moveItem',
  'reassignItem',
  'setContentStatus',
  'addRelationship',
  'deleteRelationship',
  'protectItem',
  'unprotectItem',
  'registerApp',
  'updateApp',
  // groups
  'createGroup',
  'updateGroup',
  'deleteGroup',
  'protectGroup',
  'unprotectGroup',
  'reassignGroup',
  'addUsers',
  'removeUsers',
  'updateUsers',
  'joinGroup',
  'leaveGroup',
  // members
  'createUser',
  'updateUser',
  'deleteUser',
  'updateUserRole',
  'updateUserLicenseType',
  'disableUser',
  'enableUser',
  'signin',
  'failedSignin',
  // roles
  'createRole',
  'updateRole',
  'setPrivileges',
  'deleteRole',
  // organization
  'updateOrganization',
  'setUserDefaultSettings',
  // a bulk member job finished (local; its members' own events are recorded one by one)
  'runMemberJob',
  // webhooks (organization and service)
  'createWebhook',
  'updateWebhook',
  'deleteWebhook',
  'activateWebhook',
  'deactivateWebhook',
  'updateWebhookSettings',
  'createServiceWebhook',
  'updateServiceWebhook',
  'deleteServiceWebhook',
  // scheduled tasks
  'createTask',
  'updateTask',
  'deleteTask',
  'enableTask',
  'disableTask',
  // collaborations
  'createCollaboration',
  'updateCollaboration',
  'deleteCollaboration',
  'inviteParticipant',
  'acceptInvitation',
  'declineInvitation',
  'addWorkspace',
  'updateWorkspace',
  'deleteWorkspace',
  'removeParticipant',
] as const;
export type HistoryOperation = (typeof HISTORY_OPERATIONS)[number];

// ---------------------------------------------------------------- the event

/**
 * What changed. For a change, `before` and `after` hold the changed fields' values (never a
 * password, token, secret or webhook secret). Other keys add detail (e.g. `usernames` of a batch of
 * group adds, `groups` an item was shared with). The per-operation keys are listed in docs/history.md;
 * the ones undo relies on are typed below.
 */
export interface HistoryData {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `reassignItem`: the owner and folder before and after (undo transfers back to them). */
export interface ReassignData extends HistoryData {
  before: { owner: string; ownerFolder: string | null; folderName: string | null };
  after: { owner: string; ownerFolder: string | null; folderName: string | null };
}
/** `moveItem`. */
export interface MoveData extends HistoryData {
  before: { ownerFolder: string | null; folderName: string | null };
  after: { ownerFolder: string | null; folderName: string | null };
}
/** `shareItem` / `unshareItem`: the item's whole sharing before and after (group ids). */
export interface SharingData extends HistoryData {
  before: { access: 'private' | 'shared' | 'org' | 'public'; groups: string[] };
  after: { access: 'private' | 'shared' | 'org' | 'public'; groups: string[] };
}
/** `setContentStatus`: '' when none. */
export interface ContentStatusData extends HistoryData {
  before: { contentStatus: string };
  after: { contentStatus: string };
}
/** `updateUserRole`: the base role and the custom role id (null for a base role). */
export interface RoleChangeData extends HistoryData {
  before: { role: string; roleId: string | null };
  after: { role: string; roleId: string | null };
}
/** `setPrivileges`. */
export interface PrivilegesData extends HistoryData {
  before: { privileges: string[] };
  after: { privileges: string[] };
}
/** `addUsers` / `removeUsers` / `updateUsers`: the usernames the batch changed (and `admins` for adds as managers). */
export interface GroupUsersData extends HistoryData {
  usernames: string[];
  admins?: string[];
}
/** `updateUserLicenseType`. */
export interface UserLicenseTypeData extends HistoryData {
  before: { userLicenseTypeId: string };
  after: { userLicenseTypeId: string };
}
/** `disableUser` / `enableUser`. */
export interface DisableData extends HistoryData {
  before: { disabled: boolean };
  after: { disabled: boolean };
}

export interface HistoryEvent {
  /** The target: item, group, role, collaboration, webhook or task id, or a username (for idType u). */
  id: string;
  idType: HistoryIdType;
  action: HistoryAction;
  /** Username of the member who acted; null for the service itself (a scheduled run, a sweep). */
  actor: string | null;
  /** Epoch ms. */
  created: number;
  orgId: string;
  /** The target's owner, for items, groups, webhooks and tasks (at the time of the event). */
  owner?: string;
  /** The target's title or name (item or group title, role name, webhook name…) at the time of the event. */
  title?: string;
  data: HistoryData;
  /** Local: this event's own unique id (the target `id` repeats across events). */
  eventId: string;
  /** Local: the service operation behind the event. */
  operation: HistoryOperation;
}

/** The answer: one page, `nextKey` passed back as `start` for the next; absent after the last page. */
export interface HistoryResponse {
  items: HistoryEvent[];
  nextKey?: string;
}

/** Local answer fields (left out with LOCAL_EXTRAS=off). */
export const HISTORY_EXTRAS = ['items.eventId', 'items.operation'] as const;

// ---------------------------------------------------------------- request

export const HISTORY_LIMITS = {
  defaultNum: 25,
  maxNum: 100,
  /** f=csv: `num` caps the whole file. */
  maxCsvNum: 10_000,
  /** Values in one comma list filter. */
  maxListValues: 100,
  maxCursorChars: 512,
} as const;

/** Epoch ms (digits) or an ISO 8601 date / date-time ("2018-01-01", "2018-01-01T10:00:00Z"). */
export const historyDate = z.union([z.number(), z.string().trim()]).transform((v, ctx) => {
  const ms =
    typeof v === 'number' ? v : /^-?\d+$/.test(v) ? Number(v) : /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be epoch milliseconds or an ISO 8601 date' });
    return z.NEVER;
  }
  return ms;
});

const list = commaList.pipe(z.array(z.string().max(256)).max(HISTORY_LIMITS.maxListValues, `must list at most ${HISTORY_LIMITS.maxListValues} values`));

/**
 * Request parameters. `num` defaults to 25 and may be at most 100 (at most 10,000 with f=csv, where
 * it caps the file and `start` does not apply). `all=false` with neither `id` nor `types` returns
 * only organization events (idType a), as documented; `all=true` returns every type.
 */
export const historyParams = z.object({
  num: z
    .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number')])
    .transform(Number)
    .optional(),
  start: z.string().max(HISTORY_LIMITS.maxCursorChars).optional(),
  all: wireBool.optional(),
  id: z.string().trim().max(256).optional(),
  types: list.optional(),
  actors: list.optional(),
  owners: list.optional(),
  actions: list.optional(),
  fromDate: historyDate.optional(),
  toDate: historyDate.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  f: z.enum(['json', 'pjson', 'csv']).default('json'),
});
export type HistoryParams = z.output<typeof historyParams>;

/**
 * f=csv columns, in order: the activity report's fields (ArcGIS Online "Report fields", activity).
 * `created_utc` is ISO 8601 UTC; `data` is the event's data as JSON text. Columns this portal has
 * no value for (ip, request, reqId, clientId) are empty.
 */
export const HISTORY_CSV_COLUMNS = [
  'id',
  'itemTitle',
  'idType',
  'orgId',
  'orgName',
  'owner',
  'ownerName',
  'actor',
  'actorFullName',
  'ip',
  'action',
  'created_utc',
  'request',
  'reqId',
  'clientId',
  'data',
] as const;

/** Who may read the organization's history: a custom administrator role must still see all members, groups and content. */
export const HISTORY_READ_OPERATIONS = {
  history: privileges('portal:admin:viewUsers', 'portal:admin:viewGroups', 'portal:admin:viewItems'),
} as const satisfies Record<string, Authority>;
