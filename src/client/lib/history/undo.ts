/**
 * Undo, planned without React or requests: a history event → the compensating operations that put
 * back what it changed (its `before`), or the reason it cannot be undone. And "changed since": the
 * later events on the same target that changed the same fields (or removed the target), so undo
 * never silently overwrites a later change.
 *
 * lib/history/run.ts checks and runs the plans against the portal; the operations it sends are the
 * portal's ordinary ones, so an undo is itself recorded in history.
 */
import type { HistoryEvent } from '../../../shared/contract/history.ts';
import type { ReplacedReference } from '../../../shared/references/replaced.ts';
import { describeEvent, eventKey, operationOf, replacedReferencesOf, roleName, swapWords, type Names } from './describe.ts';
import { ITEM_ACCESS_LABELS, isItemAccessLevel } from '../itemAccess.ts';

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

export type UndoStep =
  /** Transfer back (canReassignItems first, as the transfer wizard does). */
  | { kind: 'reassign'; itemId: string; title: string; from: string; to: string; folderName: string }
  | { kind: 'move'; itemId: string; title: string; folder: string }
  /** Put the item's sharing back: access level (when it changed) and groups. */
  | { kind: 'share'; itemId: string; title: string; access: 'private' | 'shared' | 'org' | 'public' | null; addGroups: string[]; removeGroups: string[] }
  /** `replacedBy`: the replacement a deprecated item named before (a local extra), named again. */
  | { kind: 'contentStatus'; itemId: string; title: string; status: string; replacedBy?: string }
  | { kind: 'protect'; itemId: string; title: string; protect: boolean }
  | { kind: 'privileges'; roleId: string; title: string; privileges: string[] }
  | { kind: 'roleFields'; roleId: string; title: string; name?: string; description?: string }
  | { kind: 'userRole'; username: string; role: string }
  | { kind: 'userDisabled'; username: string; disabled: boolean }
  /** The whole new-member defaults as they were (cleared first, then set). */
  | { kind: 'userDefaults'; role: string | null; userLicenseType: string | null; groups: string[]; userType: 'arcgisonly' | 'both' | null }
  /** A webhook's settings as they were, merged into its current record. */
  | { kind: 'webhook'; webhookId: string; title: string; fields: { name?: string; url?: string; events?: string[]; config?: Record<string, unknown> } }
  | { kind: 'webhookActive'; webhookId: string; title: string; active: boolean }
  | { kind: 'webhookSettings'; settings: Record<string, number> }
  | { kind: 'removeGroupUsers'; groupId: string; title: string; usernames: string[] }
  /** Give the group back to its previous owner (Reassign Group). */
  | { kind: 'reassignGroup'; groupId: string; title: string; to: string }
  | { kind: 'groupMemberTypes'; groupId: string; title: string; admins: string[]; members: string[] }
  | { kind: 'taskEnabled'; taskId: string; owner: string; title: string; enabled: boolean }
  /** Read the item's data as it is now, apply these swaps (the recorded ones reversed), write it back as `text`. */
  | { kind: 'replaceReferences'; itemId: string; title: string; swaps: ReplacedReference[] }
  /** A whole bulk member job put back, as one undo job on the portal (each member changed since is skipped there). */
  | { kind: 'memberJob'; jobId: string };

export type UndoPlan =
  | { event: HistoryEvent; key: string; undoable: true; steps: UndoStep[]; summary: string; note?: string }
  | { event: HistoryEvent; key: string; undoable: false; reason: string };

const STATUS_WORDS: Record<string, string> = {
  org_authoritative: 'authoritative',
  public_authoritative: 'authoritative (public)',
  deprecated: 'deprecated',
  '': 'no status',
};

const no = (event: HistoryEvent, reason: string): UndoPlan => ({ event, key: eventKey(event), undoable: false, reason });
const yes = (event: HistoryEvent, steps: UndoStep[], summary: string, note?: string): UndoPlan => ({
  event,
  key: eventKey(event),
  undoable: true,
  steps,
  summary,
  note,
});

/** The compensating operations for one event, or why there are none. */
export function planUndo(e: HistoryEvent): UndoPlan {
  return planUndoNamed(e, {});
}

/** planUndo, with the names the caller could read (items named in the summary by title, not id). */
export function planUndoNamed(e: HistoryEvent, names: Names): UndoPlan {
  const before = fieldsOf(e.data?.before);
  const after = fieldsOf(e.data?.after);
  const title = e.title ?? e.id;
  const op = operationOf(e);
  switch (op) {
    case 'reassignItem': {
      const from = str(after.owner);
      const to = str(before.owner);
      if (!from || !to) return no(e, 'The event does not record the previous owner, so there is nowhere to transfer the item back to.');
      const folderName = str(before.folderName) ?? '/';
      return yes(
        e,
        [{ kind: 'reassign', itemId: e.id, title, from, to, folderName }],
        `Transfer '${title}' from ${from} back to ${to}, into ${folderName === '/' ? 'the root folder' : `the folder '${folderName}'`}.`,
      );
    }
    case 'reassignGroup': {
      const to = str(before.owner);
      if (!to) return no(e, 'The event does not record the previous owner, so there is nowhere to give the group back to.');
      const joined = str(e.data?.joined);
      return yes(
        e,
        [{ kind: 'reassignGroup', groupId: e.id, title, to }],
        `Give the group '${title}' back to ${to}.`,
        `${joined ?? str(after.owner) ?? 'The member it was given to'} stays in the group as a member${joined ? ' (they joined it as its owner)' : ''}: remove them from the group's page if they should not.`,
      );
    }
    case 'moveItem': {
      const folder = str(before.ownerFolder) ?? '/';
      return yes(
        e,
        [{ kind: 'move', itemId: e.id, title, folder }],
        `Move '${title}' back to ${str(before.folderName) ? `the folder '${String(before.folderName)}'` : 'the root folder'}.`,
      );
    }
    case 'shareItem':
    case 'unshareItem': {
      if (e.idType !== 'i') return no(e, "Undo a sharing change from the item's own event (the item's history), where its whole sharing is recorded.");
      const access = isItemAccessLevel(before.access) ? before.access : null;
      if (!access || !Array.isArray(before.groups) || !Array.isArray(after.groups)) return no(e, 'The event does not record the sharing before the change.');
      const addGroups = strings(before.groups).filter((g) => !strings(after.groups).includes(g));
      const removeGroups = strings(after.groups).filter((g) => !strings(before.groups).includes(g));
      const accessChanged = before.access !== after.access;
      if (!accessChanged && !addGroups.length && !removeGroups.length) return no(e, 'The event changed nothing: there is nothing to undo.');
      const parts = [
        accessChanged ? `set who can see it back to “${ITEM_ACCESS_LABELS[access]}”` : '',
        addGroups.length ? `share with ${addGroups.length} group${addGroups.length === 1 ? '' : 's'} again` : '',
        removeGroups.length ? `stop sharing with ${removeGroups.length} group${removeGroups.length === 1 ? '' : 's'}` : '',
      ].filter(Boolean);
      return yes(
        e,
        [{ kind: 'share', itemId: e.id, title, access: accessChanged ? access : null, addGroups, removeGroups }],
        `Put the sharing of '${title}' back: ${parts.join('; ')}.`,
      );
    }
    case 'setContentStatus': {
      if (!('contentStatus' in before)) return no(e, 'The event does not record the previous content status.');
      const status = String(before.contentStatus ?? '');
      const replacedBy = status === 'deprecated' ? str(before.replacedBy) || undefined : undefined;
      return yes(
        e,
        [{ kind: 'contentStatus', itemId: e.id, title, status, ...(replacedBy ? { replacedBy } : {}) }],
        `Set the content status of '${title}' back to ${STATUS_WORDS[status] ?? status}.`,
      );
    }
    case 'protectItem':
    case 'unprotectItem':
      return yes(
        e,
        [{ kind: 'protect', itemId: e.id, title, protect: op === 'unprotectItem' }],
        op === 'protectItem' ? `Remove the delete protection of '${title}'.` : `Protect '${title}' from deletion again.`,
      );
    case 'setPrivileges':
      if (!Array.isArray(before.privileges)) return no(e, 'The event does not record the previous privileges.');
      return yes(
        e,
        [{ kind: 'privileges', roleId: e.id, title, privileges: strings(before.privileges) }],
        `Give the role '${title}' its ${strings(before.privileges).length} previous privileges back.`,
      );
    case 'updateRole': {
      const fields: { name?: string; description?: string } = {};
      if (typeof before.name === 'string') fields.name = before.name;
      if (typeof before.description === 'string') fields.description = before.description;
      if (!Object.keys(fields).length) return no(e, 'The event does not record the previous name or description.');
      return yes(e, [{ kind: 'roleFields', roleId: e.id, title, ...fields }], `Set the ${Object.keys(fields).join(' and ')} of the role '${title}' back.`);
    }
    case 'updateUserRole': {
      const role = str(before.roleId) ?? str(before.role);
      if (!role) return no(e, 'The event does not record the previous role.');
      return yes(e, [{ kind: 'userRole', username: e.id, role }], `Give ${e.id} the previous role ('${roleName(role, names)}') back.`);
    }
    case 'disableUser':
    case 'enableUser': {
      if (typeof before.disabled !== 'boolean') return no(e, 'The event does not record whether the account was disabled before.');
      return yes(
        e,
        [{ kind: 'userDisabled', username: e.id, disabled: before.disabled }],
        `${before.disabled ? 'Disable' : 'Enable'} the account of ${e.id} again.`,
      );
    }
    case 'setUserDefaultSettings': {
      if (!e.data?.before) return no(e, 'The event does not record the previous defaults.');
      const userType = before.userType === 'arcgisonly' || before.userType === 'both' ? before.userType : null;
      const apps =
        strings(before.apps).length || (Array.isArray(before.apps) && before.apps.length) || (Array.isArray(before.appBundles) && before.appBundles.length);
      return yes(
        e,
        [{ kind: 'userDefaults', role: str(before.role), userLicenseType: str(before.userLicenseType), groups: strings(before.groups), userType }],
        'Put the previous new-member defaults back (role, license type, groups, user type).',
        apps ? 'The default apps and app bundles are not set by this console: check them on the portal afterwards.' : undefined,
      );
    }
    case 'updateWebhook': {
      const fields: { name?: string; url?: string; events?: string[]; config?: Record<string, unknown> } = {};
      if (typeof before.name === 'string') fields.name = before.name;
      if (typeof before.payloadUrl === 'string') fields.url = before.payloadUrl;
      if (Array.isArray(before.events)) fields.events = strings(before.events);
      if (before.config && typeof before.config === 'object') fields.config = fieldsOf(before.config);
      const secretChanged = 'secret' in before || 'secret' in after;
      if (!Object.keys(fields).length)
        return no(
          e,
          secretChanged
            ? 'Only the secret changed, and a secret is never kept in history: set it again on the webhook.'
            : 'The event does not record the previous settings.',
        );
      return yes(
        e,
        [{ kind: 'webhook', webhookId: e.id, title, fields }],
        `Set the ${Object.keys(fields).join(', ')} of the webhook '${title}' back.`,
        secretChanged ? 'The secret is never kept in history: it stays as it is now.' : undefined,
      );
    }
    case 'activateWebhook':
    case 'deactivateWebhook':
      return yes(
        e,
        [{ kind: 'webhookActive', webhookId: e.id, title, active: op === 'deactivateWebhook' }],
        `${op === 'deactivateWebhook' ? 'Activate' : 'Deactivate'} the webhook '${title}' again.`,
      );
    case 'updateWebhookSettings': {
      const settings: Record<string, number> = {};
      for (const [k, v] of Object.entries(before)) if (typeof v === 'number') settings[k] = v;
      if (!Object.keys(settings).length) return no(e, 'The event does not record the previous webhook settings.');
      return yes(e, [{ kind: 'webhookSettings', settings }], `Set the webhook settings back (${Object.keys(settings).join(', ')}).`);
    }
    case 'addUsers': {
      const usernames = strings(e.data?.usernames);
      if (!usernames.length) return no(e, 'The batch added nobody (it only changed member types): undo the member type change instead.');
      return yes(
        e,
        [{ kind: 'removeGroupUsers', groupId: e.id, title, usernames }],
        `Remove the ${usernames.length} member${usernames.length === 1 ? '' : 's'} the batch added from the group '${title}' (${usernames.slice(0, 5).join(', ')}${usernames.length > 5 ? ', …' : ''}).`,
      );
    }
    case 'updateUsers': {
      const types = fieldsOf(before.memberTypes);
      const users = strings(e.data?.usernames).filter((u) => typeof types[u] === 'string');
      if (!users.length) return no(e, 'The event does not record the previous member types.');
      const admins = users.filter((u) => types[u] === 'admin');
      const members = users.filter((u) => types[u] !== 'admin');
      return yes(
        e,
        [{ kind: 'groupMemberTypes', groupId: e.id, title, admins, members }],
        `Give ${users.join(', ')} their previous member type in the group '${title}' back.`,
      );
    }
    case 'enableTask':
    case 'disableTask': {
      const owner = str(e.owner);
      if (!owner) return no(e, 'The event does not record the task owner.');
      return yes(
        e,
        [{ kind: 'taskEnabled', taskId: e.id, owner, title, enabled: op === 'disableTask' }],
        `${op === 'disableTask' ? 'Resume' : 'Pause'} the scheduled task '${title}'.`,
      );
    }
    case 'updateItem': {
      // Only an update that swapped references (recorded as such by the portal) is undone: the reverse swaps.
      const swaps = replacedReferencesOf(e);
      if (!swaps) return no(e, notUndoableReason(e));
      const reversed = swaps.map((s) => ({ from: s.to, to: s.from }));
      return yes(
        e,
        [{ kind: 'replaceReferences', itemId: e.id, title, swaps: reversed }],
        `Point '${title}' back: replace the references to ${swapWords(reversed, names)}.`,
        'Only the references are swapped back, in the data as it is now: later edits of other parts of it stay.',
      );
    }
    case 'runMemberJob': {
      const jobId = str(e.data?.memberJob);
      if (!jobId || e.data?.action === 'delete') return no(e, notUndoableReason(e));
      return yes(
        e,
        [{ kind: 'memberJob', jobId }],
        `Put back every member the job ${quotedTitle(e)} changed, as one job.`,
        'Members changed again since the job are left as they are, each with the reason.',
      );
    }
    default:
      return no(e, notUndoableReason(e));
  }
}

const quotedTitle = (e: HistoryEvent) => `'${e.title ?? e.id}'`;

/** Why an event has no undo, in words the administrator can act on. */
export function notUndoableReason(e: HistoryEvent): string {
  switch (operationOf(e)) {
    case 'addItem':
      return 'Undoing an add would delete the item and its data; delete the item from its page if that is what you want.';
    case 'deleteItem':
    case 'deleteGroup':
    case 'deleteRole':
    case 'deleteWebhook':
    case 'deleteTask':
    case 'deleteServiceWebhook':
      return 'A deleted object cannot be brought back: history keeps what changed, not the object itself.';
    case 'updateItem':
      return 'History keeps only the changed fields of an item (never its data or credentials); edit the item to change them back.';
    case 'createGroup':
    case 'createRole':
    case 'createWebhook':
    case 'createTask':
    case 'createServiceWebhook':
      return 'Undoing a creation would delete the object; delete it from its page if that is what you want.';
    case 'createUser':
      return 'This console does not remove members; disable or delete the account on the portal if that is what you want.';
    case 'signin':
    case 'failedSignin':
      return 'A sign-in changes nothing to undo.';
    case 'removeUsers':
    case 'leaveGroup':
    case 'joinGroup':
      return "Add or remove the members again from the group's page (a member who left may have chosen to).";
    case 'updateGroup':
    case 'updateOrganization':
    case 'updateTask':
      return 'These settings are edited on their own page; the before/after above says what to set.';
    case 'addRelationship':
    case 'deleteRelationship':
      return "Add or remove the relationship on the item's Related items tab.";
    case 'runMemberJob':
      return 'Deleted members cannot be brought back: their accounts are gone.';
    default:
      return 'This kind of change has no undo in the console.';
  }
}

/** The fields an event changed, for comparing with later events (group batches: the members). */
export function touchedFields(e: HistoryEvent): Set<string> {
  const out = new Set<string>([...Object.keys(fieldsOf(e.data?.before)), ...Object.keys(fieldsOf(e.data?.after))]);
  const op = operationOf(e);
  if (op === 'addUsers' || op === 'removeUsers' || op === 'updateUsers' || op === 'joinGroup' || op === 'leaveGroup') {
    const users = strings(e.data?.usernames);
    if (op === 'joinGroup' || op === 'leaveGroup') users.push(e.actor ?? '');
    for (const u of users) if (u) out.add(`member:${u.toLowerCase()}`);
    out.delete('memberTypes');
  }
  // Access and groups are one setting (the item's sharing); owner and folder are one place.
  if (out.has('groups')) out.add('access');
  if (out.has('access')) out.add('groups');
  if (out.has('ownerFolder') || out.has('owner')) out.add('ownerFolder');
  // A data change (references swapped, or any other) touches the item's data.
  if (e.data?.dataChanged || e.data?.replacedReferences) out.add('data');
  out.delete('folderName');
  return out;
}

export type LaterChange = { kind: 'changed'; by: HistoryEvent; description: string } | { kind: 'gone'; by: HistoryEvent; description: string };

/**
 * The first later event on the same target that removed it or changed what `e` changed, or
 * undefined when the event's effect still stands (as far as history tells). `events` are the
 * target's events from `e.created` on, in any order; `e` itself may be among them.
 */
export function changedSince(e: HistoryEvent, events: readonly HistoryEvent[]): LaterChange | undefined {
  const key = eventKey(e);
  const ordered = [...events].sort((a, b) => a.created - b.created);
  const self = ordered.findIndex((x) => eventKey(x) === key);
  const later = self >= 0 ? ordered.slice(self + 1) : ordered.filter((x) => x.created > e.created);
  const mine = touchedFields(e);
  for (const x of later) {
    if (x.id !== e.id || x.idType !== e.idType) continue;
    if (x.action === 'delete') return { kind: 'gone', by: x, description: describeEvent(x) };
    const theirs = touchedFields(x);
    if ([...theirs].some((f) => mine.has(f))) return { kind: 'changed', by: x, description: describeEvent(x) };
  }
  return undefined;
}
