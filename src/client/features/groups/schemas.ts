/** Groups forms and the list's address state, as zod schemas. */
import { z } from 'zod';
import { createGroupParams, MEMBERSHIP_ACCESS } from '../../../shared/contract/groups.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { GROUP_SORT_FIELDS, type GroupRecord } from '../../api/index.ts';
import { tooLong, tooMany } from '../../lib/forms.ts';

const fields = createGroupParams.shape;

/**
 * Create and edit a group: the same limits the service enforces (shared/limits), with messages
 * that name the field (issue 25, item 11). Tags are typed one by one.
 */
export const groupFormSchema = z.object({
  title: z.string().trim().min(1, 'Enter a title').max(LIMITS.groupTitleChars, tooLong('the title', LIMITS.groupTitleChars)),
  snippet: z.string().max(LIMITS.snippetChars, tooLong('the summary', LIMITS.snippetChars)),
  description: z.string().max(LIMITS.descriptionBytes - 1, tooLong('the description', LIMITS.descriptionBytes - 1)),
  tags: z
    .array(z.string().trim().min(1).max(LIMITS.tagChars, tooLong('each tag', LIMITS.tagChars)))
    .max(LIMITS.tagsPerItem, tooMany('tags', LIMITS.tagsPerItem)),
  access: fields.access.unwrap(),
  isInvitationOnly: z.boolean(),
  isViewOnly: z.boolean(),
  hiddenMembers: z.boolean(),
  leavingDisallowed: z.boolean(),
  membershipAccess: z.enum(MEMBERSHIP_ACCESS),
  sortField: fields.sortField.unwrap(),
  sortOrder: fields.sortOrder.unwrap(),
});
export type GroupFormInput = z.input<typeof groupFormSchema>;
export type GroupFormValues = z.output<typeof groupFormSchema>;
export const GROUP_FORM_FIELDS = [
  'title',
  'snippet',
  'description',
  'tags',
  'access',
  'isInvitationOnly',
  'isViewOnly',
  'hiddenMembers',
  'leavingDisallowed',
  'membershipAccess',
  'sortField',
  'sortOrder',
] as const;

export const EMPTY_GROUP: GroupFormInput = {
  title: '',
  snippet: '',
  description: '',
  tags: [],
  access: 'private',
  isInvitationOnly: false,
  isViewOnly: false,
  hiddenMembers: false,
  leavingDisallowed: false,
  membershipAccess: 'none',
  sortField: 'title',
  sortOrder: 'asc',
};

/** The form's values for an existing group. */
export function groupToForm(g: GroupRecord): GroupFormInput {
  const sortField = (fields.sortField.unwrap().options as readonly string[]).includes(g.sortField) ? (g.sortField as GroupFormInput['sortField']) : 'title';
  return {
    title: g.title,
    snippet: g.snippet ?? '',
    description: g.description ?? '',
    tags: g.tags ?? [],
    access: g.access,
    isInvitationOnly: g.isInvitationOnly,
    isViewOnly: g.isViewOnly,
    hiddenMembers: g.hiddenMembers,
    leavingDisallowed: g.leavingDisallowed,
    // A portal that leaves it out sets no restriction.
    membershipAccess: g.membershipAccess === 'org' || g.membershipAccess === 'collaboration' ? g.membershipAccess : 'none',
    sortField,
    sortOrder: g.sortOrder === 'desc' ? 'desc' : 'asc',
  };
}

/** The group list's state lives in the address. */
export const groupListSchema = z.object({
  start: z.coerce.number().int().min(1).catch(1),
  num: z.coerce.number().int().min(1).max(100).catch(10),
  sortField: z.enum(GROUP_SORT_FIELDS).catch('title'),
  sortOrder: z.enum(['asc', 'desc']).catch('asc'),
  q: z.string().trim().max(256).catch(''),
  /** Only groups the signed-in member owns. */
  mine: z.enum(['', 'owned']).catch(''),
});
export type GroupListState = z.output<typeof groupListSchema>;

const DEFAULTS: GroupListState = { start: 1, num: 10, sortField: 'title', sortOrder: 'asc', q: '', mine: '' };

export function parseGroupList(params: URLSearchParams): GroupListState {
  return groupListSchema.parse(Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, params.get(k) ?? undefined])));
}

export function groupListToParams(state: GroupListState): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof GroupListState)[]) {
    if (state[key] !== DEFAULTS[key]) out.set(key, String(state[key]));
  }
  return out;
}

/** The `q` of community/groups: free text, narrowed to the member's own groups when asked. */
export function groupSearchQuery(state: Pick<GroupListState, 'q' | 'mine'>, username: string): string {
  const parts = [state.mine === 'owned' ? `owner:${username}` : '', state.q.replace(/[()]/g, ' ').trim()].filter(Boolean);
  return parts.length ? parts.join(' AND ') : '*';
}
