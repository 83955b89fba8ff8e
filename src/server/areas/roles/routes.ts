import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createRoleParams, listRolesParams, ROLE_OPERATIONS, setPrivilegesParams, updateRoleParams } from '../../../shared/contract/roles.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { operation, REST } from '../../http/operation.ts';
import {
  createRole,
  deleteRole,
  listRolesPage,
  parsePrivilegesParam,
  roleOrError,
  ROLES_TO_MANAGE,
  ROLES_TO_READ,
  setPrivileges,
  toRole,
  updateRole,
} from './service.ts';
const ROLE = `${REST}/portals/:orgId/roles/:roleId`;

export function roleRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/roles`,
    authority: ROLE_OPERATIONS.listRoles,
    target: ROLES_TO_READ,
    extras: ['roles.memberCount', 'roles.builtIn'],
    params: listRolesParams,
    handler: async ({ params, portal, target }) => {
      const { orgId } = target;
      const { total, rows } = await listRolesPage(portal.db, orgId, params.start - 1, params.num);
      return { ...pageEnvelope(total, params, rows.length), roles: rows.map((r) => toRole(r, params.returnPrivileges, r.member_count)) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/createRole`,
    authority: ROLE_OPERATIONS.createRole,
    target: ROLES_TO_MANAGE,
    params: createRoleParams,
    handler: ({ caller, params, portal, target }) => createRole(portal, caller, target.orgId, params.name, params.description),
  });

  operation(app, {
    method: 'read',
    path: ROLE,
    authority: ROLE_OPERATIONS.role,
    target: ROLES_TO_READ,
    extras: ['memberCount', 'builtIn'],
    params: z.object({}),
    handler: async ({ path, portal, target }) => {
      const { orgId } = target;
      return toRole(await roleOrError(portal.db, orgId, path.roleId), false);
    },
  });

  operation(app, {
    method: 'read',
    path: `${ROLE}/privileges`,
    authority: ROLE_OPERATIONS.rolePrivileges,
    target: ROLES_TO_READ,
    params: z.object({}),
    handler: async ({ path, portal, target }) => {
      const { orgId } = target;
      const role = await roleOrError(portal.db, orgId, path.roleId);
      return { id: role.id, privileges: [...role.privileges].sort() };
    },
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/update`,
    authority: ROLE_OPERATIONS.updateRole,
    target: ROLES_TO_MANAGE,
    params: updateRoleParams,
    handler: ({ caller, path, params, portal, target }) => updateRole(portal, caller, target.orgId, path.roleId, params.name, params.description),
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/setPrivileges`,
    authority: ROLE_OPERATIONS.setRolePrivileges,
    target: ROLES_TO_MANAGE,
    params: setPrivilegesParams,
    handler: ({ caller, path, params, portal, target }) => setPrivileges(portal, caller, target.orgId, path.roleId, parsePrivilegesParam(params.privileges)),
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/delete`,
    authority: ROLE_OPERATIONS.deleteRole,
    target: ROLES_TO_MANAGE,
    params: z.object({}),
    handler: ({ caller, path, portal, target }) => deleteRole(portal, caller, target.orgId, path.roleId),
  });
}
