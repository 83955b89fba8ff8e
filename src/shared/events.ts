/**
 * Webhook event vocabulary (spec §6, facts §6.1): sources, operations and the URIs an event
 * matches. The outbox stores each event with its most specific URI, `/<root>/<subject>/<operation>`.
 *
 * A subscription URI is one of: `/` (everything, what `changes=allChanges` stores); a category
 * root (`/items`); a verb for the whole category (`/items/update`); a specific subject
 * (`/items/<id>`, `/groups/<id>`, `/users/<username>`, all its events) or a subject's verb
 * (`/items/<id>/update`). Roles have no subject paths.
 */
export type EventSource = 'item' | 'group' | 'user' | 'role';

export const SOURCE_ROOT: Record<EventSource, string> = { item: '/items', group: '/groups', user: '/users', role: '/roles' };

/** The specific URI of an event on one subject, e.g. `/users/user1/updateUserRole`. */
export function eventUri(source: EventSource, subjectId: string, operation: string): string {
  return `${SOURCE_ROOT[source]}/${subjectId}/${operation}`;
}

export interface EventCategory {
  source: EventSource;
  root: string;
  /** Verbs that may follow the root for the whole category (`/items/add`). */
  verbs: readonly string[];
  /** Verbs that may follow a specific subject (`/items/<id>/update`); empty when there are no subject paths. */
  subjectVerbs: readonly string[];
}

const ITEM_SUBJECT_VERBS = [
  'delete',
  'update',
  'move',
  'publish',
  'share',
  'unshare',
  'reassign',
  'protect',
  'unprotect',
  'addComment',
  'deleteComment',
  'updateComment',
] as const;
const GROUP_SUBJECT_VERBS = [
  'update',
  'delete',
  'protect',
  'unprotect',
  'invite',
  'addUsers',
  'removeUsers',
  'updateUsers',
  'reassign',
  'share',
  'unshare',
  'join',
  'leave',
] as const;
// expirationWarning and inactivityWarning: the member lifecycle's warnings (this portal's extras), sent before an expiry or an inactivity policy acts.
const USER_SUBJECT_VERBS = [
  'delete',
  'update',
  'disable',
  'enable',
  'updateUserRole',
  'updateUserLicenseType',
  'signin',
  'signout',
  'expirationWarning',
  'inactivityWarning',
] as const;

export const EVENT_CATALOGUE: Record<EventSource, EventCategory> = {
  item: { source: 'item', root: '/items', verbs: ['add', ...ITEM_SUBJECT_VERBS], subjectVerbs: ITEM_SUBJECT_VERBS },
  group: { source: 'group', root: '/groups', verbs: ['add', ...GROUP_SUBJECT_VERBS], subjectVerbs: GROUP_SUBJECT_VERBS },
  user: { source: 'user', root: '/users', verbs: ['add', 'enableUsers', 'disableUsers', ...USER_SUBJECT_VERBS], subjectVerbs: USER_SUBJECT_VERBS },
  role: { source: 'role', root: '/roles', verbs: ['add', 'update', 'delete'], subjectVerbs: [] },
};

/** The synthetic event `POST …/webhooks/<id>/test` sends (a local operation). */
export const TEST_EVENT_URI = '/webhooks/test';

/** Everything: what `changes=allChanges` stores. */
export const ALL_EVENTS = '/';

/** A subscription URI, read against the catalogue (not yet checked for the subject's existence). */
export type ParsedEventUri =
  | { kind: 'all' }
  | { kind: 'category'; source: EventSource }
  | { kind: 'verb'; source: EventSource; verb: string }
  | { kind: 'subject'; source: EventSource; subject: string; verb?: string }
  | { kind: 'invalid'; reason: string };

export function parseEventUri(uri: string): ParsedEventUri {
  if (uri === ALL_EVENTS) return { kind: 'all' };
  const parts = uri.split('/');
  if (parts[0] !== '' || parts.length < 2 || parts.length > 4 || parts.slice(1).some((p) => p === ''))
    return { kind: 'invalid', reason: 'is not an event URI' };
  const category = Object.values(EVENT_CATALOGUE).find((c) => c.root === `/${parts[1]}`);
  if (!category) return { kind: 'invalid', reason: 'names no event category (/items, /groups, /users, /roles)' };
  if (parts.length === 2) return { kind: 'category', source: category.source };
  const [, , second, third] = parts;
  if (parts.length === 3 && category.verbs.includes(second)) return { kind: 'verb', source: category.source, verb: second };
  if (!category.subjectVerbs.length) return { kind: 'invalid', reason: `is not a ${category.root} event` };
  if (third !== undefined && !category.subjectVerbs.includes(third)) return { kind: 'invalid', reason: `'${third}' is not an event of one ${category.source}` };
  return { kind: 'subject', source: category.source, subject: second, ...(third ? { verb: third } : {}) };
}

/** Every subscription URI an outbox event with this specific URI matches. */
export function matchingSubscriptions(uri: string): string[] {
  const parts = uri.split('/');
  if (parts.length !== 4) return [ALL_EVENTS, uri];
  const [, root, subject, verb] = parts;
  return [ALL_EVENTS, `/${root}`, `/${root}/${verb}`, `/${root}/${subject}`, uri];
}

/** Whether a webhook subscribed to `events` receives the event with specific URI `uri`. */
export function subscriptionMatches(events: readonly string[], uri: string): boolean {
  const wanted = new Set(matchingSubscriptions(uri));
  return events.some((e) => wanted.has(e));
}
