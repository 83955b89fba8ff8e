/** Event URIs in words, with the picker's labels: a category's names, each verb, and a whole subscription. */
import { parseEventUri, type EventSource } from '../../../shared/events.ts';

export const CATEGORY_LABEL: Record<EventSource, { title: string; one: string; subjectLabel: string }> = {
  item: { title: 'Items', one: 'item', subjectLabel: 'Item id' },
  group: { title: 'Groups', one: 'group', subjectLabel: 'Group id' },
  user: { title: 'Users', one: 'member', subjectLabel: 'Username' },
  role: { title: 'Roles', one: 'role', subjectLabel: '' },
};

const VERB_LABEL: Record<string, string> = {
  add: 'Added',
  delete: 'Deleted',
  update: 'Updated',
  move: 'Moved or owner changed',
  publish: 'Published',
  share: 'Shared',
  unshare: 'Unshared',
  reassign: 'Ownership reassigned',
  protect: 'Delete protection on',
  unprotect: 'Delete protection off',
  addComment: 'Comment added',
  deleteComment: 'Comment deleted',
  updateComment: 'Comment updated',
  invite: 'Member invited',
  addUsers: 'Members added',
  removeUsers: 'Members removed',
  updateUsers: 'Member roles changed',
  join: 'Join requested',
  leave: 'Member left',
  enableUsers: 'Accounts enabled (list)',
  disableUsers: 'Accounts disabled (list)',
  disable: 'Account disabled',
  enable: 'Account enabled',
  updateUserRole: 'Role changed',
  updateUserLicenseType: 'User type changed',
  signin: 'Signed in',
  signout: 'Signed out',
  expirationWarning: 'Expiry warning',
  inactivityWarning: 'Inactivity warning',
};
export const verbLabel = (verb: string) => VERB_LABEL[verb] ?? verb;

/** A subscription URI in words, with the picker's labels (`/items/update` → "Items: Updated"); an unknown one as it is. */
export function eventLabel(uri: string): string {
  const parsed = parseEventUri(uri);
  switch (parsed.kind) {
    case 'all':
      return 'Every event';
    case 'category':
      return `All ${CATEGORY_LABEL[parsed.source].title.toLowerCase()} events`;
    case 'verb':
      return `${CATEGORY_LABEL[parsed.source].title}: ${verbLabel(parsed.verb)}`;
    case 'subject': {
      const one = `${CATEGORY_LABEL[parsed.source].one} ${parsed.subject}`;
      return parsed.verb ? `One ${one}: ${verbLabel(parsed.verb)}` : `All events of ${one}`;
    }
    case 'invalid':
      return uri;
  }
}
