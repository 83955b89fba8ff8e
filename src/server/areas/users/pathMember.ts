/**
 * The member named in an operation's path (`:username`) as its target (http/target.ts): the owner of
 * what the operation reaches under that path (their content, folders, items to transfer). Loading
 * answers the usual 400 for a member that does not exist, before any authority is asked; each
 * operation words its own refusals.
 */
import { userNotFound } from '../../http/errors.ts';
import type { Refusals, Target } from '../../http/target.ts';
import { findUser, type UserRow } from './repo.ts';

export function pathMemberTarget(refusals: Refusals): Target<UserRow> {
  return {
    refusals,
    async load({ path, portal }) {
      const user = await findUser(portal.db, path.username);
      if (!user) throw userNotFound(path.username);
      return { value: user, orgId: user.org_id, ownerId: user.id };
    },
  };
}
