/** A group's content list (`content/groups/<id>`, Group Content) and its info files (`community/groups/<id>/info/<file>`: the thumbnail). */
import { visible, type Authority } from '../authority.ts';

export const GROUP_CONTENT_OPERATIONS = {
  /** The items shared to a group the caller may see, and only those items the caller may see; seeing all needs both administrative views. */
  groupContent: visible('portal:admin:viewGroups', 'portal:admin:viewItems'),
  groupInfoFile: visible('portal:admin:viewGroups'),
} as const satisfies Record<string, Authority>;
