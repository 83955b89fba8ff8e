import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addUsersParams,
  createGroupParams,
  GROUP_OPERATIONS,
  reassignGroupParams,
  removeUsersParams,
  searchGroupsParams,
  updateGroupParams,
  updateUsersParams,
  userlistParams,
} from '../../../shared/contract/groups.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { operation, REST } from '../../http/operation.ts';
import { parseQuery } from '../../http/search-query.ts';
import {
  addUsers,
  assertMayListMembers,
  createGroup,
  deleteGroup,
  joinGroup,
  leaveGroup,
  listGroupMembers,
  reassignGroup,
  removeUsers,
  searchGroups,
  setGroupProtected,
  toGroupRecord,
  updateGroup,
  updateUsers,
  visibleGroup,
} from './service.ts';
import { groupTarget, MEMBERSHIP_TARGET } from './target.ts';
import { GROUP_THUMBNAIL_FILES, groupThumbnailName, groupThumbnailParam, sendGroupInfoFile, setGroupThumbnail } from './thumbnail.ts';
import { GROUP_CONTENT_OPERATIONS } from '../../../shared/contract/groupContent.ts';
import { ApiError } from '../../http/errors.ts';
import { seesOrgGroups } from '../../http/policies.ts';

const GROUP = `${REST}/community/groups/:groupId`;
const none = z.object({});

/** The group, with the refusal each operation on it has always answered. */
const MANAGED_FOR_UPDATE = groupTarget("Only the group's owner, its managers or an administrator (portal:admin:updateGroups) can do this.", {
  managersAct: true,
});
const MANAGED_FOR_MEMBERS = groupTarget("Only the group's owner, its managers or an administrator (portal:admin:assignToGroups) can do this.", {
  managersAct: true,
});
const OWNED_FOR_DELETE = groupTarget("Only the group's owner or an administrator (portal:admin:deleteGroups) can delete it.");
const OWNED_FOR_PROTECTION = groupTarget("Only the group's owner or an administrator (portal:admin:updateGroups) can change its protection.");
const FOR_REASSIGN = groupTarget("Only an administrator of the group's organization (portal:admin:reassignGroups) can change its owner.");
const OWNED_FOR_MANAGERS = groupTarget("Only the group's owner or an administrator (portal:admin:updateGroups) can change managers.");

export function groupRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/community/createGroup`,
    authority: GROUP_OPERATIONS.createGroup,
    extras: ['group.memberCount'],
    params: createGroupParams.extend({ thumbnail: groupThumbnailParam }),
    files: GROUP_THUMBNAIL_FILES,
    handler: async ({ caller, params: { thumbnail, ...fields }, portal }) => {
      // The image is checked before the group is made, so a bad one leaves no group behind.
      const image = typeof thumbnail === 'object' ? { file: thumbnail, name: await groupThumbnailName(thumbnail) } : undefined;
      const made = await createGroup(portal, caller, fields);
      if (!image) return made;
      await setGroupThumbnail(portal, made.group.id, image.file, image.name);
      return { ...made, group: { ...made.group, thumbnail: image.name } };
    },
  });

  operation(app, {
    method: 'read',
    path: `${REST}/community/groups`,
    authority: GROUP_OPERATIONS.searchGroups,
    extras: ['results.memberCount'],
    params: searchGroupsParams,
    access: 'public',
    handler: async ({ caller, params, portal, reach }) => {
      const { total, rows } = await searchGroups(portal.db, {
        callerId: caller?.userId ?? null,
        callerOrgId: caller?.orgId ?? null,
        viewOrgGroups: !!caller && seesOrgGroups(caller),
        viewAllOrgGroups: !!caller && reach.others(caller.orgId),
        query: parseQuery(params.q),
        sort: params.sortField,
        order: params.sortOrder,
        offset: params.start - 1,
        limit: params.num,
      });
      return { query: params.q, ...pageEnvelope(total, params, rows.length), results: rows.map((r) => toGroupRecord(r, caller)) };
    },
  });

  operation(app, {
    method: 'read',
    path: GROUP,
    authority: GROUP_OPERATIONS.group,
    extras: ['memberCount'],
    params: none,
    access: 'public',
    handler: async ({ caller, path, portal }) => toGroupRecord(await visibleGroup(portal.db, path.groupId, caller), caller),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/update`,
    authority: GROUP_OPERATIONS.updateGroup,
    target: MANAGED_FOR_UPDATE,
    params: updateGroupParams.extend({ thumbnail: groupThumbnailParam }),
    files: GROUP_THUMBNAIL_FILES,
    handler: async ({ caller, params: { thumbnail, ...fields }, portal, target }) => {
      const image = typeof thumbnail === 'object' ? { file: thumbnail, name: await groupThumbnailName(thumbnail) } : undefined;
      const updated = await updateGroup(portal, caller, target, fields);
      if (image) await setGroupThumbnail(portal, target.id, image.file, image.name);
      return updated;
    },
  });

  operation(app, {
    method: 'read',
    path: `${GROUP}/info/*`,
    head: true,
    authority: GROUP_CONTENT_OPERATIONS.groupInfoFile,
    params: none,
    access: 'public',
    handler: async ({ caller, path, portal, req, reply }) => {
      let group;
      try {
        group = await visibleGroup(portal.db, path.groupId, caller);
      } catch (err) {
        // A group the caller cannot see answers as a file that is not there (never a 200 an image could take).
        if (err instanceof ApiError)
          return reply
            .code(404)
            .type('application/json; charset=utf-8')
            .send(JSON.stringify({ error: { ...err.toBody(), code: 404 } }));
        throw err;
      }
      return sendGroupInfoFile(portal, group.id, path['*'] ?? '', req, reply);
    },
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/delete`,
    authority: GROUP_OPERATIONS.deleteGroup,
    target: OWNED_FOR_DELETE,
    params: none,
    handler: ({ caller, portal, target }) => deleteGroup(portal, caller, target),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/reassign`,
    authority: GROUP_OPERATIONS.reassignGroup,
    target: FOR_REASSIGN,
    params: reassignGroupParams,
    handler: ({ caller, params, portal, target }) => reassignGroup(portal, caller, target, params.targetUsername),
  });

  for (const [op, value] of [
    ['protect', true],
    ['unprotect', false],
  ] as const) {
    operation(app, {
      method: 'write',
      path: `${GROUP}/${op}`,
      authority: GROUP_OPERATIONS.protectGroup,
      target: OWNED_FOR_PROTECTION,
      params: none,
      handler: ({ caller, portal, target }) => setGroupProtected(portal, caller, target, value),
    });
  }

  operation(app, {
    method: 'read',
    path: `${GROUP}/users`,
    authority: GROUP_OPERATIONS.groupUsers,
    params: none,
    access: 'public',
    handler: async ({ caller, path, portal, reach }) => {
      const group = await visibleGroup(portal.db, path.groupId, caller);
      assertMayListMembers(caller, reach, group);
      const { rows } = await listGroupMembers(portal.db, group.id, { sort: 'username', order: 'asc', offset: 0, limit: 100_000 });
      return {
        owner: group.owner_username,
        admins: rows.filter((r) => r.member_type !== 'member').map((r) => r.username),
        users: rows.filter((r) => r.member_type === 'member').map((r) => r.username),
      };
    },
  });

  // `userList` is the documented spelling ("Group Users List"); rest-js asks for `userlist`.
  for (const list of ['userlist', 'userList']) {
    operation(app, {
      method: 'read',
      path: `${GROUP}/${list}`,
      authority: GROUP_OPERATIONS.groupUserList,
      params: userlistParams,
      access: 'public',
      handler: async ({ caller, path, params, portal, reach }) => {
        const group = await visibleGroup(portal.db, path.groupId, caller);
        assertMayListMembers(caller, reach, group);
        const memberTypes = params.memberType === 'admins' ? (['owner', 'admin'] as const) : params.memberType ? [params.memberType] : undefined;
        const { total, rows } = await listGroupMembers(portal.db, group.id, {
          name: params.name,
          memberTypes: memberTypes ? [...memberTypes] : undefined,
          sort: params.sortField,
          order: params.sortOrder,
          offset: params.start - 1,
          limit: params.num,
        });
        return {
          ...pageEnvelope(total, params, rows.length),
          owner: { username: group.owner_username },
          users: rows.map((r) => ({
            username: r.username,
            fullName: r.full_name,
            memberType: r.member_type,
            thumbnail: null,
            joined: r.joined,
            orgId: r.org_id,
          })),
        };
      },
    });
  }

  operation(app, {
    method: 'write',
    path: `${GROUP}/addUsers`,
    authority: GROUP_OPERATIONS.addGroupUsers,
    target: MANAGED_FOR_MEMBERS,
    extras: ['notAddedReasons'],
    params: addUsersParams,
    handler: ({ caller, params, portal, target }) => addUsers(portal, caller, target, params.users, params.admins),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/removeUsers`,
    authority: GROUP_OPERATIONS.removeGroupUsers,
    target: MANAGED_FOR_MEMBERS,
    params: removeUsersParams,
    handler: ({ caller, params, portal, reach, target }) => removeUsers(portal, caller, reach, target, params.users),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/updateUsers`,
    authority: GROUP_OPERATIONS.updateGroupUsers,
    target: OWNED_FOR_MANAGERS,
    params: updateUsersParams,
    handler: ({ caller, params, portal, target }) => updateUsers(portal, caller, target, params.users, params.admins),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/join`,
    authority: GROUP_OPERATIONS.joinGroup,
    target: MEMBERSHIP_TARGET,
    params: none,
    handler: ({ caller, portal, target }) => joinGroup(portal, caller, target),
  });

  operation(app, {
    method: 'write',
    path: `${GROUP}/leave`,
    authority: GROUP_OPERATIONS.leaveGroup,
    target: MEMBERSHIP_TARGET,
    params: none,
    handler: ({ caller, portal, target }) => leaveGroup(portal, caller, target),
  });
}
