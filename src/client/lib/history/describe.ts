/**
 * History events in words, without React: "publisher1 shared 'Parcels' with the organization",
 * and the before/after of a change as rows. Pure, so the Activity page, the History tab and the
 * undo dialog say the same thing, and tests pin it.
 *
 * The local portal names each event's operation (`operation`, a local extra); another portal (or
 * LOCAL_EXTRAS=off) sends only the documented `action`, so operationOf infers the operation from
 * the action, the target type and the fields in `data`.
 */
import { ID_TYPE_LABELS, type HistoryEvent, type HistoryOperation } from '../../../shared/contract/history.ts';
import type { ReplacedReference } from '../../../shared/references/replaced.ts';
import { licenseLabel, USER_TYPE_LABELS } from '../licenses.ts';
import { baseRoleLabel, customRoleName, isBaseRole } from '../roles.ts';

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const has = (e: HistoryEvent, key: string) => key in fieldsOf(e.data?.before) || key in fieldsOf(e.data?.after);
const onlyKeys = (e: HistoryEvent, keys: string[]) => {
  const all = [...Object.keys(fieldsOf(e.data?.before)), ...Object.keys(fieldsOf(e.data?.after))];
  return all.length > 0 && all.every((k) => keys.includes(k));
};
const DEFAULTS_KEYS = ['role', 'userLicenseType', 'groups', 'userType', 'apps', 'appBundles'];

/** The service operation behind an event: `operation` when the portal sends it, else inferred. */
export function operationOf(e: HistoryEvent): HistoryOperation | undefined {
  if (e.operation) return e.operation;
  const after = fieldsOf(e.data?.after);
  switch (e.idType) {
    case 'i':
      if (e.action === 'add') return 'addItem';
      if (e.action === 'delete') return 'deleteItem';
      if (e.action === 'share') return 'shareItem';
      if (e.action === 'unshare') return 'unshareItem';
      if (has(e, 'owner')) return 'reassignItem';
      if (has(e, 'contentStatus')) return 'setContentStatus';
      if (has(e, 'protected')) return after.protected ? 'protectItem' : 'unprotectItem';
      if ('relationshipType' in after) return 'addRelationship';
      if (has(e, 'relationshipType')) return 'deleteRelationship';
      if (has(e, 'registeredApp')) return 'updateApp';
      if (onlyKeys(e, ['ownerFolder', 'folderName'])) return 'moveItem';
      return 'updateItem';
    case 'g':
      if (e.action === 'create') return 'createGroup';
      if (e.action === 'delete') return 'deleteGroup';
      if (e.action === 'addusers') return 'addUsers';
      if (e.action === 'removeusers') return 'removeUsers';
      if (e.action === 'updateUsers') return 'updateUsers';
      if (e.action === 'share') return 'shareItem';
      if (e.action === 'unshare') return 'unshareItem';
      if (has(e, 'protected')) return after.protected ? 'protectGroup' : 'unprotectGroup';
      if (onlyKeys(e, ['owner'])) return 'reassignGroup';
      return 'updateGroup';
    case 'u':
      if (e.action === 'create') return 'createUser';
      if (e.action === 'login') return 'signin';
      if (e.action === 'failedlogin') return 'failedSignin';
      if (e.action === 'delete') return 'deleteUser';
      if (has(e, 'roleId') || has(e, 'role')) return 'updateUserRole';
      if (has(e, 'disabled')) return after.disabled ? 'disableUser' : 'enableUser';
      return 'updateUser';
    case 'r':
      if (e.action === 'create') return 'createRole';
      if (e.action === 'delete') return 'deleteRole';
      return has(e, 'privileges') ? 'setPrivileges' : 'updateRole';
    case 'a':
      return DEFAULTS_KEYS.some((k) => k !== 'role' && has(e, k)) || onlyKeys(e, ['role']) ? 'setUserDefaultSettings' : 'updateOrganization';
    case 'w':
      if (e.action === 'create') return 'createWebhook';
      if (e.action === 'delete') return 'deleteWebhook';
      if (e.id === e.orgId) return 'updateWebhookSettings';
      if (onlyKeys(e, ['isActive'])) return after.isActive ? 'activateWebhook' : 'deactivateWebhook';
      return 'updateWebhook';
    case 't':
      if (e.action === 'create') return 'createTask';
      if (e.action === 'delete') return 'deleteTask';
      if (onlyKeys(e, ['active'])) return after.active ? 'enableTask' : 'disableTask';
      return 'updateTask';
    default:
      return undefined;
  }
}

/**
 * Optional names the caller could read (lib/history/names.ts: roles, groups, items), so sentences
 * and before/after rows say 'Field crews' instead of a group id. Each answers undefined for an id
 * it could not read, and the id is shown then.
 */
export interface Names {
  group?: (id: string) => string | undefined;
  role?: (id: string) => string | undefined;
  item?: (id: string) => string | undefined;
}

const quoted = (s: string) => `'${s}'`;
const STATUS_WORDS: Record<string, string> = { org_authoritative: 'authoritative', public_authoritative: 'authoritative (public)', deprecated: 'deprecated' };

/** "a, b and c"; more than `max` become "a, b, c and 4 more". */
export function listWords(names: readonly string[], max = 3): string {
  if (names.length === 0) return 'nobody';
  const shown = names.length > max ? [...names.slice(0, max), `${names.length - max} more`] : [...names];
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** "the organization", "everyone (public)", "the group 'Field crews'" (or "2 groups"). */
function sharingWords(targets: readonly string[], names: Names): string {
  const words: string[] = [];
  const groups: string[] = [];
  for (const t of targets) {
    if (t === 'Everyone' || t === 'everyone') words.push('everyone (public)');
    else if (t === 'Organization' || t === 'org') words.push('the organization');
    else groups.push(t);
  }
  if (groups.length === 1) words.push(`the group ${quoted(names.group?.(groups[0]) ?? groups[0])}`);
  else if (groups.length > 1) words.push(`${groups.length} groups`);
  return words.length ? listWords(words, 4) : 'nobody';
}

/** What a share or unshare added or took away, from the whole sharing before and after. */
export function sharingDelta(e: HistoryEvent): { added: string[]; removed: string[] } {
  const b = fieldsOf(e.data?.before);
  const a = fieldsOf(e.data?.after);
  const level = (access: unknown) => (access === 'public' ? 2 : access === 'org' ? 1 : 0);
  const bg = Array.isArray(b.groups) ? (b.groups as string[]) : [];
  const ag = Array.isArray(a.groups) ? (a.groups as string[]) : [];
  const added = ag.filter((g) => !bg.includes(g));
  const removed = bg.filter((g) => !ag.includes(g));
  const [from, to] = [level(b.access), level(a.access)];
  if (to > from) added.unshift(to === 2 ? 'Everyone' : 'Organization');
  if (to < from) removed.unshift(from === 2 ? 'Everyone' : 'Organization');
  return { added, removed };
}

/**
 * A role's name: a base role ("org_user") in words, a custom or built-in role id by its name (the
 * roles the console read, then the built-in ones), else the id.
 */
export function roleName(role: string, names: Names = {}): string {
  if (isBaseRole(role)) return baseRoleLabel(role);
  return names.role?.(role) ?? customRoleName(role) ?? role;
}

export function roleWords(role: unknown, roleId: unknown, names: Names = {}): string {
  if (typeof roleId === 'string' && roleId) return `the role ${quoted(roleName(roleId, names))}`;
  return typeof role === 'string' && role ? roleName(role, names) : 'no role';
}

/** Field names in words (the rest are shown as recorded). */
const FIELD_LABELS: Record<string, string> = {
  role: 'role',
  roleId: 'custom role',
  userLicenseType: 'user type',
  userLicenseTypeId: 'user type',
  userType: 'apps',
  apps: 'default apps',
  appBundles: 'app bundles',
  groups: 'groups',
  contentStatus: 'content status',
  replacedBy: 'replaced by',
  destinationItemId: 'related item',
  originItemId: 'item',
  relationshipType: 'relationship',
  ownerFolder: 'folder',
  folderName: 'folder name',
  payloadUrl: 'payload URL',
  isActive: 'active',
  snippet: 'summary',
  licenseInfo: 'terms of use',
  accessInformation: 'credits',
  typeKeywords: 'type keywords',
};
export const fieldLabel = (field: string): string => FIELD_LABELS[field] ?? field;

/** Nothing recorded, null, '' and [] all mean "not set"; lists compare as sets. */
const normal = (v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) return v.length ? JSON.stringify(v.map((x) => JSON.stringify(x)).sort()) : null;
  return JSON.stringify(v);
};
const differs = (a: unknown, b: unknown) => normal(a) !== normal(b);

/**
 * The fields whose value the event changed. A portal may record the whole record before and after
 * (the new-member defaults do): fields equal on both sides are not changes.
 */
export function changedKeys(e: HistoryEvent): string[] {
  const before = fieldsOf(e.data?.before);
  const after = fieldsOf(e.data?.after);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => differs(before[k], after[k]));
}
const keysSuffix = (e: HistoryEvent) => {
  const labels = [...new Set(changedKeys(e).map(fieldLabel))];
  return labels.length ? ` (${listWords(labels, 4)})` : '';
};

const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** One recorded value in words: role, user type, apps, groups and items by name (ids when unknown). */
export function displayValue(field: string, v: unknown, names: Names = {}): string {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) return '—';
  switch (field) {
    case 'role':
    case 'roleId':
      return typeof v === 'string' ? roleName(v, names) : valueText(v);
    case 'userLicenseType':
    case 'userLicenseTypeId':
      return typeof v === 'string' ? licenseLabel(v) : valueText(v);
    case 'userType':
      return typeof v === 'string' ? ((USER_TYPE_LABELS as Record<string, string>)[v] ?? v) : valueText(v);
    case 'groups':
      return Array.isArray(v)
        ? stringsOf(v)
            .map((g) => names.group?.(g) ?? g)
            .join(', ')
        : valueText(v);
    case 'destinationItemId':
    case 'replacedBy':
    case 'originItemId':
      return typeof v === 'string' ? (names.item?.(v) ?? v) : valueText(v);
    case 'contentStatus':
      return STATUS_WORDS[String(v)] ?? String(v);
    default:
      return valueText(v);
  }
}

/**
 * The new-member defaults an event changed, each in words: "set the role to 'Publisher'",
 * "cleared the user type (was Creator)", "added the group 'Crews'". Set and clear read apart.
 */
export function defaultsChanges(e: HistoryEvent, names: Names = {}): string[] {
  const before = fieldsOf(e.data?.before);
  const after = fieldsOf(e.data?.after);
  const parts: string[] = [];
  for (const field of changedKeys(e)) {
    const label = fieldLabel(field);
    if (field === 'groups' || field === 'apps' || field === 'appBundles') {
      const [b, a] = [before[field], after[field]].map((v) => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : []));
      const added = a.filter((x) => !b.includes(x));
      const removed = b.filter((x) => !a.includes(x));
      const words = (ids: string[]) => listWords(field === 'groups' ? ids.map((g) => quoted(names.group?.(g) ?? g)) : ids.map(quoted), 3);
      const noun = field === 'groups' ? 'group' : field === 'apps' ? 'app' : 'app bundle';
      const plural = (n: number) => (n === 1 ? noun : `${noun}s`);
      if (added.length) parts.push(`added the ${plural(added.length)} ${words(added)}`);
      if (removed.length) parts.push(`removed the ${plural(removed.length)} ${words(removed)}`);
      continue;
    }
    const was = displayValue(field, before[field], names);
    const now = displayValue(field, after[field], names);
    if (now === '—') parts.push(`cleared the ${label} (was ${quoted(was)})`);
    else if (was === '—') parts.push(`set the ${label} to ${quoted(now)}`);
    else parts.push(`changed the ${label} from ${quoted(was)} to ${quoted(now)}`);
  }
  return parts;
}

/** "Org name" of a collaboration participant: the name recorded with the event, else its portal id. */
const participantOf = (e: HistoryEvent): string => {
  const name = e.data?.participantName;
  const id = e.data?.participantPortalId;
  return typeof name === 'string' && name ? quoted(name) : typeof id === 'string' && id ? `the portal ${id}` : 'a participant';
};
/** A recorded value in a sentence (objects as JSON, never "[object Object]"), or the fallback when it is absent. */
const textOr = (v: unknown, fallback: string): string => (v === undefined || v === null || v === '' ? fallback : valueText(v));
const usernamesOf = (e: HistoryEvent): string[] => (Array.isArray(e.data?.usernames) ? (e.data.usernames as string[]) : []);

/**
 * The swaps an `updateItem` event records when the update only pointed the item at other items or
 * services (`data.replacedReferences`, see shared/references/replaced.ts), or undefined.
 */
export function replacedReferencesOf(e: HistoryEvent): ReplacedReference[] | undefined {
  const raw = e.data?.replacedReferences;
  if (!Array.isArray(raw) || !raw.length) return undefined;
  const swaps = (raw as unknown[]).filter((s): s is ReplacedReference => {
    const f = fieldsOf(s);
    return typeof f.from === 'string' && typeof f.to === 'string';
  });
  return swaps.length === raw.length ? swaps : undefined;
}

const ITEM_ID = /^[0-9a-f]{32}$/i;

/** "'Parks' with 'Parks 2024' (and its service address)": the item swap by name, URLs as written. */
export function swapWords(swaps: readonly ReplacedReference[], names: Names = {}): string {
  const word = (v: string) => (ITEM_ID.test(v) ? quoted(names.item?.(v) ?? v) : v);
  const item = swaps.find((s) => ITEM_ID.test(s.from));
  const urls = swaps.filter((s) => s !== item);
  if (item) return `${word(item.from)} with ${word(item.to)}${urls.length ? ' (and its service address)' : ''}`;
  return urls.map((s) => `${s.from} with ${s.to}`).join(' and ');
}

/** One event in one sentence. */
export function describeEvent(e: HistoryEvent, names: Names = {}): string {
  const who = e.actor ?? 'The portal';
  // An item event recorded without its title (an organization-wide status change): the title read by id, else the id.
  const title = quoted(e.title || (e.idType === 'i' ? names.item?.(e.id) : undefined) || e.id);
  const before = fieldsOf(e.data?.before);
  const after = fieldsOf(e.data?.after);
  const op = operationOf(e);
  const itemWords = (id: unknown) => (typeof id === 'string' && id ? quoted(names.item?.(id) ?? id) : 'an item');
  switch (op) {
    case 'addItem':
      return `${who} added the item ${title}`;
    case 'updateItem': {
      const swaps = replacedReferencesOf(e);
      if (swaps) return `${who} replaced references to ${swapWords(swaps, names)} in ${title}`;
      return `${who} updated the item ${title}${keysSuffix(e)}`;
    }
    case 'deleteItem':
      return `${who} deleted the item ${title}`;
    case 'shareItem':
    case 'unshareItem': {
      if (e.idType === 'g') {
        const items = Array.isArray(e.data?.items) ? (e.data.items as { title?: string; itemId?: string }[]) : [];
        const what = items.length === 1 ? quoted(items[0].title ?? items[0].itemId ?? '') : `${items.length} items`;
        return op === 'shareItem' ? `${who} shared ${what} with the group ${title}` : `${who} stopped sharing ${what} with the group ${title}`;
      }
      const { added, removed } = sharingDelta(e);
      const listed = Array.isArray(e.data?.groups) ? (e.data.groups as string[]) : [];
      if (op === 'shareItem') return `${who} shared ${title} with ${sharingWords(added.length ? added : listed, names)}`;
      return `${who} stopped sharing ${title} with ${sharingWords(removed.length ? removed : listed, names)}`;
    }
    case 'moveItem':
      return `${who} moved ${title} to ${after.folderName ? `the folder ${quoted(String(after.folderName))}` : 'the root folder'}`;
    case 'reassignItem': {
      const folder = after.folderName ? ` (folder ${quoted(String(after.folderName))})` : '';
      return `${who} transferred ${title} from ${textOr(before.owner, 'its owner')} to ${textOr(after.owner, 'another member')}${folder}`;
    }
    case 'setContentStatus': {
      const status = String(after.contentStatus ?? '');
      return status ? `${who} marked ${title} as ${STATUS_WORDS[status] ?? status}` : `${who} removed the content status of ${title}`;
    }
    case 'protectItem':
      return `${who} protected ${title} from deletion`;
    case 'unprotectItem':
      return `${who} removed the delete protection of ${title}`;
    case 'addRelationship':
      return `${who} related ${title} to ${itemWords(after.destinationItemId)} (${textOr(after.relationshipType, 'relationship')})`;
    case 'deleteRelationship':
      return `${who} removed the relationship ${textOr(before.relationshipType, '')} from ${title} to ${itemWords(before.destinationItemId)}`.replace(
        '  ',
        ' ',
      );
    case 'registerApp':
      return `${who} registered ${title} as an app`;
    case 'updateApp':
      return `${who} changed the app registration of ${title}`;
    case 'createGroup':
      return `${who} created the group ${title}`;
    case 'updateGroup':
      return `${who} updated the group ${title}${keysSuffix(e)}`;
    case 'deleteGroup':
      return `${who} deleted the group ${title}`;
    case 'protectGroup':
      return `${who} protected the group ${title} from deletion`;
    case 'unprotectGroup':
      return `${who} removed the delete protection of the group ${title}`;
    case 'reassignGroup':
      return `${who} gave the group ${title} to ${textOr(after.owner, 'another member')}`;
    case 'addUsers': {
      const admins = Array.isArray(e.data?.admins) ? (e.data.admins as string[]) : [];
      return `${who} added ${listWords(usernamesOf(e))} to the group ${title}${admins.length ? ` (as managers: ${listWords(admins)})` : ''}`;
    }
    case 'removeUsers':
      return `${who} removed ${listWords(usernamesOf(e))} from the group ${title}`;
    case 'updateUsers': {
      const types = fieldsOf(after.memberTypes);
      const users = usernamesOf(e);
      const managers = users.filter((u) => types[u] === 'admin');
      const members = users.filter((u) => types[u] !== 'admin');
      const parts = [
        managers.length ? `made ${listWords(managers)} ${managers.length === 1 ? 'a manager' : 'managers'}` : '',
        members.length ? `made ${listWords(members)} ${members.length === 1 ? 'a member' : 'members'} (no longer managing)` : '',
      ].filter(Boolean);
      return `${who} ${parts.join(' and ') || 'changed member types'} of the group ${title}`;
    }
    case 'joinGroup':
      return `${who} joined the group ${title}`;
    case 'leaveGroup':
      return `${who} left the group ${title}`;
    case 'createUser':
      return `${who} added the member ${e.id} (${roleWords(after.role, after.roleId, names)})`;
    case 'updateUserRole':
      return `${who} changed the role of ${e.id} from ${roleWords(before.role, before.roleId, names)} to ${roleWords(after.role, after.roleId, names)}`;
    case 'disableUser':
      return `${who} disabled the account of ${e.id}`;
    case 'enableUser':
      return `${who} enabled the account of ${e.id}`;
    case 'updateUser':
      return `${who} updated the member ${e.id}${keysSuffix(e)}`;
    case 'deleteUser':
      return `${who} deleted the member ${e.id}`;
    case 'signin':
      return `${e.id} signed in`;
    case 'failedSignin':
      return `A sign-in as ${e.id} failed${e.data?.reason ? ` (${String(e.data.reason) === 'password' ? 'wrong password' : String(e.data.reason)})` : ''}`;
    case 'createRole':
      return `${who} created the role ${title}`;
    case 'updateRole':
      return `${who} updated the role ${title}${keysSuffix(e)}`;
    case 'setPrivileges': {
      const b = Array.isArray(before.privileges) ? (before.privileges as string[]) : [];
      const a = Array.isArray(after.privileges) ? (after.privileges as string[]) : [];
      const plus = a.filter((p) => !b.includes(p)).length;
      const minus = b.filter((p) => !a.includes(p)).length;
      return `${who} changed the privileges of the role ${title} (${plus} added, ${minus} removed)`;
    }
    case 'deleteRole':
      return `${who} deleted the role ${title}`;
    case 'updateOrganization':
      return `${who} changed the organization's settings${keysSuffix(e)}`;
    case 'runMemberJob': {
      const [done, failed] = [Number(e.data?.succeeded ?? 0), Number(e.data?.failed ?? 0)];
      return `${who} ran the bulk job ${title}: ${done} changed, ${failed} not changed`;
    }
    case 'setUserDefaultSettings': {
      const parts = defaultsChanges(e, names);
      return parts.length ? `${who} changed the new-member defaults: ${parts.join('; ')}` : `${who} saved the new-member defaults unchanged`;
    }
    case 'createWebhook':
    case 'createServiceWebhook':
      return `${who} created the webhook ${title}`;
    case 'updateWebhook':
    case 'updateServiceWebhook':
      return `${who} updated the webhook ${title}${keysSuffix(e)}`;
    case 'deleteWebhook':
    case 'deleteServiceWebhook':
      return `${who} deleted the webhook ${title}`;
    case 'activateWebhook':
      return `${who} activated the webhook ${title}`;
    case 'deactivateWebhook':
      return `${who} deactivated the webhook ${title}`;
    case 'updateWebhookSettings':
      return `${who} changed the webhook settings${keysSuffix(e)}`;
    case 'createTask':
      return `${who} scheduled the task ${title}`;
    case 'updateTask':
      return `${who} updated the scheduled task ${title}${keysSuffix(e)}`;
    case 'deleteTask':
      return `${who} deleted the scheduled task ${title}`;
    case 'enableTask':
      return `${who} resumed the scheduled task ${title}`;
    case 'disableTask':
      return `${who} paused the scheduled task ${title}`;
    // Collaborations: the target is the collaboration (its name is the title); a participant is
    // named by the organization recorded with the event, never by the collaboration's name.
    case 'createCollaboration':
      return `${who} created the collaboration ${title}`;
    case 'updateCollaboration':
      return `${who} updated the collaboration ${title}${keysSuffix(e)}`;
    case 'deleteCollaboration':
      return `${who} deleted the collaboration ${title}`;
    case 'inviteParticipant':
      return `${who} invited ${participantOf(e)} to the collaboration ${title}`;
    case 'acceptInvitation':
      return `${who} accepted the invitation to the collaboration ${title}`;
    case 'declineInvitation':
      return `${who} declined the invitation to the collaboration ${title}`;
    case 'addWorkspace':
      return `${who} added the workspace ${quoted(textOr(e.data?.name, 'workspace'))} to the collaboration ${title}`;
    case 'updateWorkspace':
      return `${who} updated a workspace of the collaboration ${title}`;
    case 'deleteWorkspace':
      return `${who} deleted a workspace of the collaboration ${title}`;
    case 'removeParticipant':
      return e.data?.collaborationOperation === 'removeParticipation'
        ? `${who} left the collaboration ${title} for ${participantOf(e)}`
        : `${who} removed ${participantOf(e)} from the collaboration ${title}`;
    default:
      return `${who}: ${e.action} ${ID_TYPE_LABELS[e.idType] ?? e.idType} ${title}`;
  }
}

export interface ChangeRow {
  /** The recorded field name. */
  field: string;
  /** The field in words ("user type" for userLicenseType). */
  label: string;
  before: string;
  after: string;
}

/** A value as text: '—' for nothing, lists joined, objects as JSON. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The before/after of a change, one row per field whose value changed, values by name. */
export function changeRows(e: HistoryEvent, names: Names = {}): ChangeRow[] {
  const before = fieldsOf(e.data?.before);
  const after = fieldsOf(e.data?.after);
  return changedKeys(e).map((field) => ({
    field,
    label: fieldLabel(field),
    before: displayValue(field, before[field], names),
    after: displayValue(field, after[field], names),
  }));
}

/** Recorded for the log's own bookkeeping, or already said by the sentence. */
const HIDDEN_DETAILS = new Set(['before', 'after', 'collaborationOperation', 'participantName', 'invitationId']);
const DETAIL_LABELS: Record<string, string> = {
  usernames: 'members',
  admins: 'managers',
  items: 'items',
  participantPortalId: 'participant',
  workspacesStopped: 'workspaces stopped',
  reason: 'reason',
};

/** The other details an event carries (usernames of a batch, groups shared with, a participant), by name. */
export function detailRows(e: HistoryEvent, names: Names = {}): { field: string; label: string; value: string }[] {
  return Object.entries(e.data ?? {})
    .filter(([k]) => !HIDDEN_DETAILS.has(k))
    .map(([field, v]) => {
      let value: string;
      if (field === 'participantPortalId') value = typeof e.data?.participantName === 'string' ? `${e.data.participantName} (${valueText(v)})` : valueText(v);
      else if (field === 'items' && Array.isArray(v))
        value = (v as { title?: string; itemId?: string }[]).map((x) => x.title ?? (x.itemId ? (names.item?.(x.itemId) ?? x.itemId) : '')).join(', ') || '—';
      else value = displayValue(field, v, names);
      return { field, label: DETAIL_LABELS[field] ?? fieldLabel(field), value };
    });
}

/** A key that tells events apart: eventId (local), else what the event is made of. */
export function eventKey(e: HistoryEvent): string {
  return e.eventId ?? `${e.created}:${e.idType}:${e.id}:${e.action}:${e.actor ?? ''}:${JSON.stringify(e.data ?? {})}`;
}
