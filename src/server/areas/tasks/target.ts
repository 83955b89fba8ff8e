/**
 * The member whose tasks a `community/users/:username/tasks/…` operation acts on, as its target
 * (http/target.ts). The member owns their tasks; decide() lets them act, and anyone else only by
 * TASK_OPERATIONS (a default administrator of the member's organization), refused with the words
 * the area has always answered. A task id is then looked up among that member's tasks only, so a
 * task cannot be reached through another member's path.
 */
import type { Target } from '../../http/target.ts';
import { userNotFound } from '../../http/errors.ts';
import { memberByUsername } from './repo/members.ts';

/** A member named in a task path: the owner of the tasks the operation reaches. */
export interface TaskOwner {
  id: string;
  username: string;
}

const notTheirs = (username: string) => `Only ${username} or a default administrator of their organization can do this.`;

export const TASK_OWNER: Target<TaskOwner> = {
  refusals: { otherOrg: notTheirs('the member') },
  async load({ caller, path, portal }) {
    const { username } = path;
    const refusals = { otherOrg: notTheirs(username) };
    if (caller.username.toLowerCase() === username.toLowerCase()) {
      return { value: { id: caller.userId, username: caller.username }, orgId: caller.orgId, ownerId: caller.userId, refusals };
    }
    const member = await memberByUsername(portal.db, username);
    if (!member) throw userNotFound(username);
    return { value: { id: member.id, username: member.username }, orgId: member.org_id, ownerId: member.id, refusals };
  },
};
