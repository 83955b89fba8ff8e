import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createRoleParams, listRolesParams, setPrivilegesParams, updateRoleParams } from '../../../shared/contract/roles.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { Caller } from '../../http/auth.ts';
import { operation, REST } from '../../http/operation.ts';
import { member } from '../../http/authority.ts';
import { listRolesPage } from './repo.ts';
import { assertOrgMember, createRole, ROLE_MANAGERS, deleteRole, parsePrivilegesParam, roleOrError, setPrivileges, toRole, updateRole } from './service.ts';

const org = (caller: Caller, orgId: string) => (orgId === 'self' ? caller.orgId : orgId);
const ROLE = `${REST}/portals/:orgId/roles/:roleId`;

export function roleRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/portals/:orgId/roles`,
    authority: member(),
    extras: ['roles.memberCount', 'roles.builtIn'],
    params: listRolesParams,
    handler: async ({ caller, path, params, portal }) => {
      const orgId = org(caller, path.orgId);
      assertOrgMember(caller, orgId);
      const { total, rows } = await listRolesPage(portal.db, orgId, params.start - 1, params.num);
      return { ...pageEnvelope(total, params, rows.length), roles: rows.map((r) => toRole(r, params.returnPrivileges, r.member_count)) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/createRole`,
    authority: ROLE_MANAGERS,
    params: createRoleParams,
    handler: ({ caller, path, params, portal }) => createRole(portal, caller, org(caller, path.orgId), params.name, params.description),
  });

  operation(app, {
    method: 'read',
    path: ROLE,
    authority: member(),
    extras: ['memberCount', 'builtIn'],
    params: z.object({}),
    handler: async ({ caller, path, portal }) => {
      const orgId = org(caller, path.orgId);
      assertOrgMember(caller, orgId);
      return toRole(await roleOrError(portal.db, orgId, path.roleId), false);
    },
  });

  operation(app, {
    method: 'read',
    path: `${ROLE}/privileges`,
    authority: member(),
    params: z.object({}),
    handler: async ({ caller, path, portal }) => {
      const orgId = org(caller, path.orgId);
      assertOrgMember(caller, orgId);
      const role = await roleOrError(portal.db, orgId, path.roleId);
      return { id: role.id, privileges: [...role.privileges].sort() };
    },
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/update`,
    authority: ROLE_MANAGERS,
    params: updateRoleParams,
    handler: ({ caller, path, params, portal }) => updateRole(portal, caller, org(caller, path.orgId), path.roleId, params.name, params.description),
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/setPrivileges`,
    authority: ROLE_MANAGERS,
    params: setPrivilegesParams,
    handler: ({ caller, path, params, portal }) => setPrivileges(portal, caller, org(caller, path.orgId), path.roleId, parsePrivilegesParam(params.privileges)),
  });

  operation(app, {
    method: 'write',
    path: `${ROLE}/delete`,
    authority: ROLE_MANAGERS,
    params: z.object({}),
    handler: ({ caller, path, portal }) => deleteRole(portal, caller, org(caller, path.orgId), path.roleId),
  });
}
