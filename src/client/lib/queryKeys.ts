/**
 * Query keys shared across the console, so that a mutation in one area can invalidate what it
 * changes elsewhere without one feature importing another.
 */
export const queryKeys = {
  self: ['self'] as const,
  portal: ['portal'] as const,
  members: (orgId: string) => ['members', orgId] as const,
  roles: (orgId: string) => ['roles', orgId] as const,
  /** Every group read: searches, pickers, single groups and their member lists. */
  groups: ['groups'] as const,
  group: (groupId: string) => ['groups', 'detail', groupId] as const,
  /** Every item read: searches, single items, related items, a member's folders. */
  items: ['items'] as const,
  item: (itemId: string) => ['items', 'detail', itemId] as const,
  userDefaultSettings: (orgId: string) => ['userDefaultSettings', orgId] as const,
  /**
   * Every dependency answer: the portal's operations and the graph built in this browser. Item
   * changes that can alter references (data, sharing, status, owner, deletion) invalidate it.
   */
  dependencies: ['dependencies'] as const,
};
