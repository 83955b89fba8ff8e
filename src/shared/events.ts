/**
 * Webhook event vocabulary (spec §6, facts §6.1): sources, operations and the URIs an event
 * matches. The outbox stores each event with its most specific URI.
 */
export type EventSource = 'item' | 'group' | 'user' | 'role';

export const SOURCE_ROOT: Record<EventSource, string> = { item: '/items', group: '/groups', user: '/users', role: '/roles' };

/** The specific URI of an event on one subject, e.g. `/users/user1/updateUserRole`. */
export function eventUri(source: EventSource, subjectId: string, operation: string): string {
  return `${SOURCE_ROOT[source]}/${subjectId}/${operation}`;
}
