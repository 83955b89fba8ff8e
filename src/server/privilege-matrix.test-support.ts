/**
 * The generated privilege matrix (docs/security.md, "Authority"): every route the server registers
 * (read from the router itself, so nothing registered outside the operation table escapes it) that
 * can reach what another member owns — their account, items, groups, tasks, apps — or the
 * organization's settings, is tried on the first (default) administrator's objects in the Demo
 * Organization by
 *
 * - members whose custom role holds each single `portal:admin:*` privilege in turn, and a few
 *   realistic pairs: allowed exactly where the operation's declared authority grants it;
 * - the demo `viewer1` (the built-in Viewer role): likewise, from that role's privileges;
 * - members of the second organization (the Partner Organization): its default administrator
 *   `partner_admin`, a custom role holding every administrative privilege, and a plain member —
 *   refused, or not shown the Demo Organization's object, whatever they hold in their own.
 *
 * Routes are matched to their fixture by path; a declared operation that can reach another's
 * object with no fixture fails the run, and so does any registered route that is neither a
 * declared operation nor listed in OUTSIDE_ROUTES with its fixture and rule — a new route cannot be
 * added without saying who may use it on others and being tried here.
 *
 * It runs in shards (privilege-matrix.1/2/3.test.ts), each on its own service with the routes whose
 * position in the route list falls to it: one file was the longest of the unit run (over four
 * minutes beside the end-to-end specs) and Vitest cannot split a file between its workers.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember, insertRole } from '../../test/support/members.ts';
import { startService, type TestService } from '../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES, BUILT_IN_ROLES, PRIVILEGES, rolePrivileges, type Privilege } from '../shared/privileges.ts';
import { authorityGrants, type Authority } from './http/authority.ts';
import { MemberLifecycleRunner } from './jobs/memberLifecycle.ts';

/** Each administrative privilege with what it requires to have effect (as the role editor makes it). */
const SINGLES = PRIVILEGES.filter((p) => p.id.startsWith('portal:admin:')).map((p) => [
  p.id,
  ...(p.requires ?? []).filter((r) => r.startsWith('portal:admin:')),
]);
const PAIRS = [
  ['portal:admin:viewUsers', 'portal:admin:updateUsers'],
  ['portal:admin:viewItems', 'portal:admin:updateItems'],
  ['portal:admin:viewItems', 'portal:admin:deleteItems'],
  ['portal:admin:viewItems', 'portal:admin:reassignItems'],
  ['portal:admin:viewGroups', 'portal:admin:updateGroups'],
  ['portal:admin:viewGroups', 'portal:admin:assignToGroups'],
  ['portal:admin:createReports', 'portal:admin:viewItems'],
  ['portal:admin:viewUsers', 'portal:admin:viewGroups', 'portal:admin:viewItems'],
  ['portal:admin:manageWebhooks', 'portal:admin:manageSecurity'],
  // What an inactivity policy may do (disable, change role and user type): the policies' operations need all of it.
  ['portal:admin:viewUsers', 'portal:admin:disableUsers', 'portal:admin:changeUserRoles', 'portal:admin:manageLicenses'],
];
const ROLE_SETS = [...SINGLES, ...PAIRS];
const TARGET_PARAMS = /:(username|itemId|groupId|taskId|clientId|runId|webhookId|roleId|collaborationId|serverId)\b/;

let svc: TestService;
let adminToken: string;
let adminId: string;
/** Who tries each cell: `privileges` names the role in the report; `org` whose member it is. */
interface Actor {
  label: string;
  username: string;
  org: 'demo' | 'partner';
  held: ReadonlySet<Privilege>;
  token: string;
}
const actors: Actor[] = [];

const REST = '/sharing/rest';
const uid = () => randomUUID().replaceAll('-', '').slice(0, 12);

async function call(url: string, params: Record<string, string>, token: string, file?: string, method: 'GET' | 'POST' = 'POST') {
  const res = await svc.app.inject(
    file
      ? multipart(url, { f: 'json', token, ...params }, file)
      : method === 'GET'
        ? { method: 'GET', url, headers: { authorization: `Bearer ${token}` } }
        : { method: 'POST', url, payload: { f: 'json', token, ...params } },
  );
  if (res.statusCode !== 200) return { error: { code: res.statusCode, message: res.body.slice(0, 200) } };
  return res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : { body: res.body };
}
/** A multipart/form-data request with the fields and one file part named `file`. */
function multipart(url: string, fields: Record<string, string>, content: string) {
  const boundary = `matrix${uid()}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  );
  return { method: 'POST' as const, url, payload: parts.join(''), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const asAdmin = async (path: string, params: Record<string, string> = {}) => {
  const body = await call(`${REST}/${path}`, params, adminToken);
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
};

// ---- the default administrator's objects, made fresh for each cell that changes them
const item = async (type = 'Web Map', text = '{}') => (await asAdmin('content/users/admin/addItem', { title: `Private ${uid()}`, type, text })).id as string;
/** Written directly: the administrator would otherwise reach the most groups a member may belong to. */
const group = async () => {
  const id = randomUUID().replaceAll('-', '');
  await svc.db.query(`INSERT INTO groups (id, org_id, owner_id, title, access, created, modified) VALUES ($1, $2, $3, $4, 'private', 0, 0)`, [
    id,
    svc.orgId,
    adminId,
    `Private group ${uid()}`,
  ]);
  await svc.db.query(`INSERT INTO group_members (group_id, user_id, member_type, joined) VALUES ($1, $2, 'owner', 0)`, [id, adminId]);
  return id;
};
/** The administrator's earlier tasks are removed first: a member may have only so many active tasks. */
const task = async () => {
  await svc.db.query('DELETE FROM tasks WHERE owner_id = $1', [adminId]);
  return (
    await asAdmin('community/users/admin/tasks/createTask', {
      type: 'ExecuteReport',
      parameters: JSON.stringify({ reportType: 'members' }),
      minute: '0',
      hour: '7',
      dayOfMonth: '?',
      month: '*',
      dayOfWeek: '2-6',
    })
  ).taskId as string;
};
const app = async () => {
  const itemId = await item('Application', '');
  return (await asAdmin('oauth2/registerApp', { itemId, appType: 'browser', redirect_uris: JSON.stringify(['http://127.0.0.1:5999/cb']) })).client_id as string;
};
/** A private item of the administrator holding the resource config/app.json. */
const resourceItem = async () => {
  const id = await item();
  await asAdmin(`content/users/admin/items/${id}/addResources`, { text: '{"a":1}', fileName: 'app.json', resourcesPrefix: 'config' });
  return id;
};
/** The administrator's item at `base` (in a folder when the path has one), deleted into the recycle bin when `recycled`. */
const binItem = async (base: string, recycled: boolean) => {
  const folderId = base.includes(':folderId') ? await folder() : undefined;
  const id = (await asAdmin(`content/users/admin/${folderId ? `${folderId}/` : ''}addItem`, { title: `Private ${uid()}`, type: 'Web Map', text: '{}' }))
    .id as string;
  if (recycled) await asAdmin(`content/users/admin/items/${id}/delete`, {});
  return `${REST}/content/users/admin/${folderId ? `${folderId}/` : ''}items/${id}`;
};
const member = async () => {
  const username = `target.${uid()}`;
  await insertMember(svc.db, username, svc.orgId);
  return username;
};
const folder = async () => (await asAdmin('content/users/admin/createFolder', { title: `F${uid()}` })).folder.id as string;
const webhook = async () =>
  (await asAdmin(`portals/${svc.orgId}/webhooks/createWebhook`, { name: `hook ${uid()}`, url: 'http://127.0.0.1:9/hook', changes: 'allChanges' })).id as string;
const server = async () => (await asAdmin(`portals/${svc.orgId}/servers/register`, { name: `S${uid()}`, url: `http://127.0.0.1:9/s${uid()}` })).id as string;
const service = async (folderName?: string) => {
  const id = await server();
  const name = `Svc${uid()}`;
  const made = await call(
    `/server/${id}/admin/services/createService`,
    { serviceName: name, type: 'FeatureServer', ...(folderName ? { folderName } : {}) },
    adminToken,
  );
  if (made.error) throw new Error(`createService: ${JSON.stringify(made.error)}`);
  return { server: id, service: `${name}.FeatureServer` };
};
/** An inactivity policy of the organization, switched off (it touches nobody until switched on). */
const policy = async () =>
  (
    await asAdmin(`portals/${svc.orgId}/memberLifecycle/policies/createPolicy`, {
      title: `P ${uid()}`,
      warnAfterDays: '3000',
      actAfterDays: '3650',
      action: 'disable',
    })
  ).id as string;
const collaboration = async () => (await asAdmin(`portals/${svc.orgId}/collaborations/createCollaboration`, { name: `C ${uid()}` })).id as string;

interface Cell {
  url: string;
  params?: Record<string, string>;
  /** For reads that answer without an error but leave out what the caller may not see: whether the object was shown (to `caller`). */
  shown?: (body: any, caller: string) => boolean | Promise<boolean>;
  /** The same answer for anyone, signed in or not, of any organization (why): allowed for every caller. */
  anyone?: string;
  /** An error only a caller who reached the object can get (the object has no such file, say): counts as allowed. */
  reached?: RegExp;
  /** Sent as a multipart file part named `file`. */
  file?: string;
  /** GET with the token in a header (a page a browser opens); POST with form fields otherwise. */
  method?: 'GET' | 'POST';
}

/** A 1×1 PNG, base64: a thumbnail updateThumbnail accepts. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const ITEM = (id: string) => `${REST}/content/users/admin/items/${id}`;
const GROUP = (id: string) => `${REST}/community/groups/${id}`;
const TASK = (id: string) => `${REST}/community/users/admin/tasks/${id}`;
const ORG = () => `${REST}/portals/${svc.orgId}`;
const schedule = { minute: '0', hour: '8', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };

/** One fixture per declared path (the operation's path pattern, without the /sharing/rest prefix). */
const FIXTURES: Record<string, () => Promise<Cell>> = {
  // Items
  'content/items/:itemId': async () => ({ url: `${REST}/content/items/${await item()}` }),
  'content/items/:itemId/data': async () => ({ url: `${REST}/content/items/${await item()}/data` }),
  'content/items/:itemId/groups': async () => ({ url: `${REST}/content/items/${await item()}/groups` }),
  'content/items/:itemId/info/*': async () => ({ url: `${REST}/content/items/${await item()}/info/metadata/metadata.xml`, reached: /has no info file/ }),
  'content/items/:itemId/dependencies': async () => ({ url: `${REST}/content/items/${await item()}/dependencies` }),
  'content/items/:itemId/dependents': async () => ({ url: `${REST}/content/items/${await item()}/dependents`, params: { transitive: 'true' } }),
  'content/items/:itemId/relatedItems': async () => ({
    url: `${REST}/content/items/${await item()}/relatedItems`,
    params: { relationshipType: 'Map2Service' },
  }),
  // Item resources: the administrator's private item with one resource (inherit access).
  'content/items/:itemId/resources': async () => ({ url: `${REST}/content/items/${await resourceItem()}/resources`, shown: (b) => b.total === 1 }),
  'content/items/:itemId/resources/*': async () => ({ url: `${REST}/content/items/${await resourceItem()}/resources/config/app.json` }),
  'content/users/:username/items/:itemId/addResources': async () => ({
    url: `${ITEM(await item())}/addResources`,
    params: { text: '{}', fileName: 'planted.json' },
  }),
  'content/users/:username/items/:itemId/updateResources': async () => ({
    url: `${ITEM(await resourceItem())}/updateResources`,
    params: { text: '{"changed":true}', fileName: 'app.json', resourcesPrefix: 'config' },
  }),
  'content/users/:username/items/:itemId/removeResources': async () => ({
    url: `${ITEM(await resourceItem())}/removeResources`,
    params: { deleteAll: 'true' },
  }),
  'content/users/:username': async () => {
    const id = await item();
    return { url: `${REST}/content/users/admin`, params: { num: '100' }, shown: (b) => b.total > 0 && typeof id === 'string' };
  },
  'content/users/:username/:folderId': async () => {
    const folderId = await folder();
    return { url: `${REST}/content/users/admin/${folderId}` };
  },
  'content/users/:username/items/:itemId': async () => ({ url: ITEM(await item()) }),
  'content/users/:username/items/:itemId/update': async () => ({ url: `${ITEM(await item())}/update`, params: { snippet: 'changed' } }),
  'content/users/:username/items/:itemId/updateThumbnail': async () => ({ url: `${ITEM(await item())}/updateThumbnail`, params: { data: PNG_1PX } }),
  'content/users/:username/items/:itemId/move': async () => ({ url: `${ITEM(await item())}/move`, params: { folder: '/' } }),
  'content/users/:username/items/:itemId/delete': async () => ({ url: `${ITEM(await item())}/delete` }),
  'content/users/:username/items/:itemId/protect': async () => ({ url: `${ITEM(await item())}/protect` }),
  'content/users/:username/items/:itemId/unprotect': async () => ({ url: `${ITEM(await item())}/unprotect` }),
  'content/users/:username/items/:itemId/share': async () => ({ url: `${ITEM(await item())}/share`, params: { org: 'true' } }),
  'content/items/:itemId/share': async () => ({ url: `${REST}/content/items/${await item()}/share`, params: { org: 'true' } }),
  'content/users/:username/shareItems': async () => {
    const id = await item();
    return { url: `${REST}/content/users/admin/shareItems`, params: { items: id, org: 'true' }, shown: (b) => b.results?.[0]?.success === true };
  },
  'content/users/:username/items/:itemId/unshare': async () => unshareCell((id) => `${ITEM(id)}/unshare`),
  'content/items/:itemId/unshare': async () => unshareCell((id) => `${REST}/content/items/${id}/unshare`),
  'content/users/:username/unshareItems': async () => {
    const cell = await unshareCell(() => `${REST}/content/users/admin/unshareItems`);
    return { ...cell, shown: (b) => b.results?.[0]?.success === true && !b.results[0].notUnsharedFrom?.length };
  },
  'content/items/:itemId/setContentStatus': async () => ({ url: `${REST}/content/items/${await item()}/setContentStatus`, params: { status: 'deprecated' } }),
  'content/users/:username/addItem': async () => ({ url: `${REST}/content/users/admin/addItem`, params: { title: 'Planted', type: 'Web Map', text: '{}' } }),
  'content/users/:username/:folderId/addItem': async () => {
    const folderId = await folder();
    return { url: `${REST}/content/users/admin/${folderId}/addItem`, params: { title: 'Planted', type: 'Web Map', text: '{}' } };
  },
  'content/users/:username/items/:itemId/addPart': async () => ({
    url: `${ITEM(await multipartItem())}/addPart`,
    params: { partNum: '1' },
    file: 'a,b\n1,2\n',
  }),
  'content/users/:username/items/:itemId/commit': async () => ({ url: `${ITEM(await multipartItem())}/commit` }),
  'content/users/:username/items/:itemId/cancel': async () => ({ url: `${ITEM(await multipartItem())}/cancel` }),
  'content/users/:username/items/:itemId/parts': async () => ({ url: `${ITEM(await multipartItem())}/parts` }),
  ...Object.fromEntries(
    ['update', 'move', 'delete', 'protect', 'unprotect', 'updateThumbnail'].map((op) => [
      `content/users/:username/:folderId/items/:itemId/${op}`,
      async () => {
        const folderId = await folder();
        const id = (await asAdmin(`content/users/admin/${folderId}/addItem`, { title: `Private ${uid()}`, type: 'Web Map', text: '{}' })).id as string;
        return {
          url: `${REST}/content/users/admin/${folderId}/items/${id}/${op}`,
          params: op === 'update' ? { snippet: 'changed' } : op === 'move' ? { folder: '/' } : op === 'updateThumbnail' ? { data: PNG_1PX } : {},
        };
      },
    ]),
  ),
  'content/users/:username/items/:itemId/status': async () => ({ url: `${ITEM(await item())}/status` }),
  // Recycle bin: the administrator's item deleted into the bin (canRecycle: a live one), at both item paths.
  ...Object.fromEntries(
    ['content/users/:username/items/:itemId', 'content/users/:username/:folderId/items/:itemId'].flatMap((base) => [
      [`${base}/restore`, async () => ({ url: `${await binItem(base, true)}/restore` })],
      [`${base}/canRestore`, async () => ({ url: `${await binItem(base, true)}/canRestore` })],
      [`${base}/canRecycle`, async () => ({ url: `${await binItem(base, false)}/canRecycle` })],
    ]),
  ),
  'content/portals/:portalId': async () => {
    const url = await binItem('content/users/:username/items/:itemId', true);
    const id = url.split('/').pop();
    return {
      url: `${REST}/content/portals/self`,
      params: { recycleBinItems: 'true', num: '100', sortOrder: 'desc' },
      shown: (b) => !!b.items?.some((i: any) => i.id === id),
    };
  },
  'content/users/:username/createFolder': async () => ({ url: `${REST}/content/users/admin/createFolder`, params: { title: `F${uid()}` } }),
  'content/users/:username/:folderId/delete': async () => {
    const folderId = await folder();
    return { url: `${REST}/content/users/admin/${folderId}/delete` };
  },
  'content/users/:username/addRelationship': async () => ({
    url: `${REST}/content/users/admin/addRelationship`,
    params: { originItemId: await item(), destinationItemId: await item('Feature Service', ''), relationshipType: 'Map2Service' },
  }),
  'content/users/:username/deleteRelationship': async () => {
    const [origin, destination] = [await item(), await item('Feature Service', '')];
    await asAdmin('content/users/admin/addRelationship', { originItemId: origin, destinationItemId: destination, relationshipType: 'Map2Service' });
    return {
      url: `${REST}/content/users/admin/deleteRelationship`,
      params: { originItemId: origin, destinationItemId: destination, relationshipType: 'Map2Service' },
    };
  },
  search: async () => {
    const id = await item();
    return { url: `${REST}/search`, params: { q: `id:${id}` }, shown: (b) => b.results?.some((i: { id: string }) => i.id === id) };
  },
  // A private item in a private group: a caller who is neither sees it only with both administrative views.
  'content/groups/:groupId/search': async () => {
    const [id, groupId] = [await item(), await group()];
    await svc.db.query('INSERT INTO item_shares (item_id, group_id, shared) VALUES ($1, $2, 0)', [id, groupId]);
    return { url: `${REST}/content/groups/${groupId}/search`, shown: (b) => b.results?.some((i: { id: string }) => i.id === id) };
  },
  // Group Content: the same private item in a private group, listed without a query.
  'content/groups/:groupId': async () => {
    const [id, groupId] = [await item(), await group()];
    await svc.db.query('INSERT INTO item_shares (item_id, group_id, shared) VALUES ($1, $2, 0)', [id, groupId]);
    return { url: `${REST}/content/groups/${groupId}`, shown: (b) => b.items?.some((i: { id: string }) => i.id === id) };
  },
  // Reassign
  'content/users/:username/items/:itemId/reassign': async () => ({ url: `${ITEM(await item())}/reassign`, params: { targetUsername: 'publisher1' } }),
  'content/users/:username/items/:itemId/canReassign': async () => ({ url: `${ITEM(await item())}/canReassign`, params: { targetUsername: 'publisher1' } }),
  'content/users/:username/canReassignItems': async () => ({
    url: `${REST}/content/users/admin/canReassignItems`,
    params: { items: await item(), targetUsername: 'publisher1' },
  }),
  'content/users/:username/reassignItems': async () => {
    const id = await item();
    return {
      url: `${REST}/content/users/admin/reassignItems`,
      params: { items: id, targetUsername: 'publisher1' },
      shown: (b) => b.results?.[0]?.success === true,
    };
  },
  // Registered apps
  'oauth2/apps/:clientId': async () => ({ url: `${REST}/oauth2/apps/${await app()}` }),
  'oauth2/apps/:clientId/update': async () => ({
    url: `${REST}/oauth2/apps/${await app()}/update`,
    params: { redirect_uris: JSON.stringify(['http://127.0.0.1:6999/steal']) },
  }),
  'oauth2/apps/:clientId/unregister': async () => ({ url: `${REST}/oauth2/apps/${await app()}/unregister` }),
  'content/users/:username/items/:itemId/registeredAppInfo': async () => {
    const clientId = await app();
    const [row] = await svc.db.query<{ item_id: string }>('SELECT item_id FROM oauth_apps WHERE client_id = $1', [clientId]);
    return { url: `${ITEM(row.item_id)}/registeredAppInfo` };
  },
  'oauth2/registerApp': async () => ({
    url: `${REST}/oauth2/registerApp`,
    params: { itemId: await item('Application', ''), appType: 'browser', redirect_uris: '[]' },
  }),
  // Scheduled tasks
  'community/users/:username/tasks/createTask': async () => ({ url: `${REST}/community/users/admin/tasks/createTask`, params: { ...reportTask } }),
  'community/users/:username/tasks/:taskId/createTask': async () => ({ url: `${REST}/community/users/admin/tasks/x/createTask`, params: { ...reportTask } }),
  'community/users/:username/createTask': async () => ({ url: `${REST}/community/users/admin/createTask`, params: { ...reportTask } }),
  'community/users/:username/tasks': async () => {
    const id = await task();
    return { url: `${REST}/community/users/admin/tasks`, shown: (b) => b.tasks?.some((t: { id: string }) => t.id === id) };
  },
  'community/users/:username/tasks/:taskId': async () => ({ url: TASK(await task()) }),
  'community/users/:username/tasks/:taskId/update': async () => ({ url: `${TASK(await task())}/update`, params: { title: 'changed', ...schedule } }),
  'community/users/:username/tasks/:taskId/enable': async () => ({ url: `${TASK(await task())}/enable` }),
  'community/users/:username/tasks/:taskId/disable': async () => ({ url: `${TASK(await task())}/disable` }),
  'community/users/:username/tasks/:taskId/delete': async () => ({ url: `${TASK(await task())}/delete` }),
  'community/users/:username/tasks/:taskId/run': async () => ({ url: `${TASK(await task())}/run` }),
  'community/users/:username/tasks/:taskId/runs': async () => ({ url: `${TASK(await task())}/runs` }),
  'community/users/:username/tasks/:taskId/runs/:runId': async () => ({ url: `${TASK(await task())}/runs/none` }),
  'portals/:orgId/allScheduledTasks': async () => {
    const id = await task();
    return { url: `${ORG()}/allScheduledTasks`, shown: (b) => b.tasks?.some((t: { id: string }) => t.id === id) };
  },
  // Groups
  'community/groups': async () => {
    const id = await group();
    return { url: `${REST}/community/groups`, params: { q: `id:${id}` }, shown: (b) => b.results?.some((g: { id: string }) => g.id === id) };
  },
  'community/groups/:groupId': async () => ({ url: GROUP(await group()) }),
  'community/groups/:groupId/info/*': async () => ({ url: `${GROUP(await group())}/info/thumbnail.png`, reached: /has no info file/ }),
  'community/groups/:groupId/update': async () => ({ url: `${GROUP(await group())}/update`, params: { snippet: 'changed' } }),
  'community/groups/:groupId/delete': async () => ({ url: `${GROUP(await group())}/delete` }),
  'community/groups/:groupId/reassign': async () => ({ url: `${GROUP(await group())}/reassign`, params: { targetUsername: await member() } }),
  'community/groups/:groupId/protect': async () => ({ url: `${GROUP(await group())}/protect` }),
  'community/groups/:groupId/unprotect': async () => ({ url: `${GROUP(await group())}/unprotect` }),
  'community/groups/:groupId/users': async () => ({ url: `${GROUP(await group())}/users` }),
  'community/groups/:groupId/userlist': async () => ({ url: `${GROUP(await group())}/userlist` }),
  'community/groups/:groupId/userList': async () => ({ url: `${GROUP(await group())}/userList` }),
  'community/groups/:groupId/addUsers': async () => ({ url: `${GROUP(await group())}/addUsers`, params: { users: await member() } }),
  'community/groups/:groupId/removeUsers': async () => {
    const [id, username] = [await group(), await member()];
    await asAdmin(`community/groups/${id}/addUsers`, { users: username });
    return { url: `${GROUP(id)}/removeUsers`, params: { users: username }, shown: (b) => !b.notRemoved?.length };
  },
  'community/groups/:groupId/updateUsers': async () => {
    const [id, username] = [await group(), await member()];
    await asAdmin(`community/groups/${id}/addUsers`, { users: username });
    return { url: `${GROUP(id)}/updateUsers`, params: { admins: username }, shown: (b) => b.results?.[0]?.success !== false };
  },
  'community/groups/:groupId/join': async () => ({ url: `${GROUP(await group())}/join` }),
  'community/groups/:groupId/leave': async () => ({ url: `${GROUP(await group())}/leave` }),
  // Members
  'community/users/:username/unlockSignIn': async () => ({ url: `${REST}/community/users/${await member()}/unlockSignIn` }),
  'community/users/:username/disable': async () => ({ url: `${REST}/community/users/${await member()}/disable` }),
  'community/users/:username/delete': async () => ({ url: `${REST}/community/users/${await member()}/delete` }),
  'community/users/:username/update': async () => ({ url: `${REST}/community/users/${await member()}/update`, params: { description: `d ${uid()}` } }),
  'community/users/:username/enable': async () => {
    const username = await member();
    await svc.db.query('UPDATE users SET disabled = true WHERE username = $1', [username]);
    return { url: `${REST}/community/users/${username}/enable` };
  },
  'community/users/:username': async () => ({ url: `${REST}/community/users/${await member()}`, shown: (b) => b.email !== undefined }),
  'portals/:orgId/users': async () => ({ url: `${ORG()}/users`, params: { num: '100' }, shown: (b, caller) => b.users?.some(othersEmail(caller)) }),
  'community/users': async () => ({
    url: `${REST}/community/users`,
    params: { q: '*', num: '100' },
    shown: (b, caller) => b.results?.some(othersEmail(caller)),
  }),
  'community/users/:username/tags': async () => {
    const tag = `t${uid()}`;
    await asAdmin('content/users/admin/addItem', { title: `Tagged ${uid()}`, type: 'Web Map', text: '{}', tags: tag });
    return { url: `${REST}/community/users/admin/tags`, shown: (b) => b.tags?.some((t: { tag: string }) => t.tag === tag) };
  },
  'portals/self/users/search': async () => ({
    url: `${REST}/portals/self/users/search`,
    params: { num: '100' },
    shown: (b, caller) => b.results?.some(othersEmail(caller)),
  }),
  'portals/:orgId/updateUserLicenseType': async () => ({
    url: `${ORG()}/updateUserLicenseType`,
    params: { users: await member(), userLicenseType: 'contributorUT' },
  }),
  'portals/:orgId/removeUsers': async () => ({
    url: `${ORG()}/removeUsers`,
    params: { users: await member() },
    shown: (b) => Array.isArray(b.notRemoved) && b.notRemoved.length === 0,
  }),
  'portals/:orgId/updateUserRole': async () => ({ url: `${ORG()}/updateUserRole`, params: { username: await member(), role: 'iAAAAAAAAAAAAAAA' } }),
  '/portaladmin/security/users/createUser': async () => ({
    url: '/portaladmin/security/users/createUser',
    params: { username: `made.${uid()}`, password: 'Matrix.Member.8642', email: `m${uid()}@example.com`, role: 'iAAAAAAAAAAAAAAA' },
    // Made in the caller's own organization: only a member made in this one counts.
    shown: async (b) => (await svc.db.query('SELECT 1 FROM users WHERE username = $1 AND org_id = $2', [b.username, svc.orgId])).length === 1,
  }),
  // The organization
  // Another organization's callers (and anonymous ones) get the public record; members also their own view.
  'portals/:orgId': async () => ({ url: ORG(), shown: (b) => b.maxExternalMembersPerGroup !== undefined }),
  'portals/:orgId/update': async () => ({ url: `${ORG()}/update`, params: { description: `changed ${uid()}` } }),
  // Subscription Info: the organization's own members, in both spellings.
  'portals/:orgId/subscriptionInfo': async () => ({ url: `${ORG()}/subscriptionInfo`, shown: (b) => typeof b.maxUsers === 'number' }),
  'portals/:orgId/subscriptioninfo': async () => ({ url: `${ORG()}/subscriptioninfo`, shown: (b) => typeof b.maxUsers === 'number' }),
  'portals/:orgId/settings': async () => ({ url: `${ORG()}/settings`, anyone: 'the settings "as seen by the current user, anonymous or signed in"' }),
  'portals/:orgId/history': async () => ({ url: `${ORG()}/history` }),
  'portals/:orgId/dependencies': async () => {
    // The administrator's private item, alone of its type and used by nothing: listed only to who may see it.
    const type = `Matrix ${uid()}`;
    const id = await item(type);
    return { url: `${ORG()}/dependencies`, params: { types: type }, shown: (b) => b.results?.some((r: { id: string }) => r.id === id) };
  },
  'portals/:orgId/userDefaultSettings': async () => ({ url: `${ORG()}/userDefaultSettings` }),
  'portals/:orgId/setUserDefaultSettings': async () => ({ url: `${ORG()}/setUserDefaultSettings`, params: { role: 'iAAAAAAAAAAAAAAA' } }),
  'portals/:orgId/userDefaultSettings/delete': async () => ({ url: `${ORG()}/userDefaultSettings/delete` }),
  // Roles
  'portals/:orgId/roles': async () => ({ url: `${ORG()}/roles` }),
  'portals/:orgId/createRole': async () => ({ url: `${ORG()}/createRole`, params: { name: `Role ${uid()}` } }),
  'portals/:orgId/roles/:roleId': async () => ({ url: `${ORG()}/roles/${await role()}` }),
  'portals/:orgId/roles/:roleId/privileges': async () => ({ url: `${ORG()}/roles/${await role()}/privileges` }),
  'portals/:orgId/roles/:roleId/update': async () => ({ url: `${ORG()}/roles/${await role()}/update`, params: { description: 'changed' } }),
  'portals/:orgId/roles/:roleId/setPrivileges': async () => ({
    url: `${ORG()}/roles/${await role()}/setPrivileges`,
    params: { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup'] }) },
  }),
  'portals/:orgId/roles/:roleId/delete': async () => ({ url: `${ORG()}/roles/${await role()}/delete` }),
  // Organization webhooks
  'portals/:orgId/webhooks': async () => ({ url: `${ORG()}/webhooks` }),
  'portals/:orgId/webhooks/createWebhook': async () => ({
    url: `${ORG()}/webhooks/createWebhook`,
    params: { name: `hook ${uid()}`, url: 'http://127.0.0.1:9/planted', changes: 'allChanges' },
  }),
  'portals/:orgId/webhooks/settings': async () => ({ url: `${ORG()}/webhooks/settings` }),
  'portals/:orgId/webhooks/settings/update': async () => ({ url: `${ORG()}/webhooks/settings/update`, params: { notificationAttempts: '3' } }),
  'portals/:orgId/webhooks/:webhookId': async () => ({ url: `${ORG()}/webhooks/${await webhook()}` }),
  'portals/:orgId/webhooks/:webhookId/update': async () => ({
    url: `${ORG()}/webhooks/${await webhook()}/update`,
    params: { name: `hook ${uid()}`, url: 'http://127.0.0.1:9/moved', events: '/' },
  }),
  'portals/:orgId/webhooks/:webhookId/delete': async () => ({ url: `${ORG()}/webhooks/${await webhook()}/delete` }),
  'portals/:orgId/webhooks/:webhookId/activate': async () => ({ url: `${ORG()}/webhooks/${await webhook()}/activate` }),
  'portals/:orgId/webhooks/:webhookId/deactivate': async () => ({ url: `${ORG()}/webhooks/${await webhook()}/deactivate` }),
  'portals/:orgId/webhooks/:webhookId/notificationStatus': async () => ({ url: `${ORG()}/webhooks/${await webhook()}/notificationStatus` }),
  'portals/:orgId/webhooks/:webhookId/notificationStatus/:deliveryId/redeliver': async () => ({
    url: `${ORG()}/webhooks/${await webhook()}/notificationStatus/none/redeliver`,
    reached: /Delivery 'none' does not exist/,
  }),
  'portals/:orgId/webhooks/:webhookId/test': async () => ({ url: `${ORG()}/webhooks/${await webhook()}/test` }),
  // Federation and service webhooks
  'portals/:orgId/webhooks/listServiceWebhooks': async () => ({ url: `${ORG()}/webhooks/listServiceWebhooks` }),
  'portals/:orgId/servers': async () => ({ url: `${ORG()}/servers` }),
  'portals/:orgId/servers/register': async () => ({ url: `${ORG()}/servers/register`, params: { name: `S${uid()}`, url: `http://127.0.0.1:9/r${uid()}` } }),
  '/server/:serverId/admin/services': async () => ({ url: `/server/${await server()}/admin/services` }),
  '/server/:serverId/admin/services/createService': async () => ({
    url: `/server/${await server()}/admin/services/createService`,
    params: { serviceName: `Svc${uid()}`, type: 'FeatureServer' },
  }),
  ...serviceWebhookFixtures(''),
  ...serviceWebhookFixtures('/:folder'),
  // Collaborations
  'portals/:orgId/collaborations': async () => ({ url: `${ORG()}/collaborations` }),
  'portals/:orgId/collaborations/createCollaboration': async () => ({ url: `${ORG()}/collaborations/createCollaboration`, params: { name: `C ${uid()}` } }),
  'portals/:orgId/collaborations/invitations': async () => ({ url: `${ORG()}/collaborations/invitations` }),
  'portals/:orgId/collaborations/participantCandidates': async () => ({ url: `${ORG()}/collaborations/participantCandidates`, params: { q: 'Partner' } }),
  'portals/:orgId/collaborations/:collaborationId/invitations': async () => ({ url: `${ORG()}/collaborations/${await collaboration()}/invitations` }),
  'portals/:orgId/collaborations/:collaborationId/invitations/:invitationId': async () => ({
    url: `${ORG()}/collaborations/${await collaboration()}/invitations/none`,
    reached: /Invitation 'none' does not exist/,
  }),
  'portals/:orgId/collaborations/:collaborationId': async () => ({ url: `${ORG()}/collaborations/${await collaboration()}` }),
  'portals/:orgId/collaborations/:collaborationId/participants': async () => ({ url: `${ORG()}/collaborations/${await collaboration()}/participants` }),
  'portals/:orgId/collaborations/:collaborationId/workspaces': async () => ({ url: `${ORG()}/collaborations/${await collaboration()}/workspaces` }),
  'portals/:orgId/collaborations/:collaborationId/events': async () => ({ url: `${ORG()}/collaborations/${await collaboration()}/events` }),
  // Member lifecycle (local extras): a member's expiration, and a policy of the administrator's.
  'portals/:orgId/memberLifecycle/setExpiration': async () => ({
    url: `${ORG()}/memberLifecycle/setExpiration`,
    params: { usernames: await member(), expiration: String(Date.now() + 86_400_000) },
    shown: (b) => b.results?.[0]?.status === true,
  }),
  'portals/:orgId/memberLifecycle/clearExpiration': async () => ({
    url: `${ORG()}/memberLifecycle/clearExpiration`,
    params: { usernames: await member() },
    shown: (b) => b.results?.[0]?.status === true,
  }),
  'portals/:orgId/memberLifecycle/expirations': async () => ({ url: `${ORG()}/memberLifecycle/expirations` }),
  'portals/:orgId/memberLifecycle/policies': async () => ({ url: `${ORG()}/memberLifecycle/policies` }),
  'portals/:orgId/memberLifecycle/policies/createPolicy': async () => ({
    url: `${ORG()}/memberLifecycle/policies/createPolicy`,
    params: { title: `P ${uid()}`, warnAfterDays: '30', actAfterDays: '60', action: 'disable' },
  }),
  'portals/:orgId/memberLifecycle/policies/:policyId': async () => ({ url: `${ORG()}/memberLifecycle/policies/${await policy()}` }),
  'portals/:orgId/memberLifecycle/policies/:policyId/preview': async () => ({ url: `${ORG()}/memberLifecycle/policies/${await policy()}/preview` }),
  'portals/:orgId/memberLifecycle/policies/:policyId/runs': async () => ({ url: `${ORG()}/memberLifecycle/policies/${await policy()}/runs` }),
  'portals/:orgId/memberLifecycle/policies/:policyId/update': async () => ({
    url: `${ORG()}/memberLifecycle/policies/${await policy()}/update`,
    params: { title: `P ${uid()}`, warnAfterDays: '20', actAfterDays: '60', action: 'disable' },
  }),
  'portals/:orgId/memberLifecycle/policies/:policyId/delete': async () => ({ url: `${ORG()}/memberLifecycle/policies/${await policy()}/delete` }),
  'portals/:orgId/memberLifecycle/policies/:policyId/enable': async () => ({ url: `${ORG()}/memberLifecycle/policies/${await policy()}/enable` }),
  'portals/:orgId/memberLifecycle/policies/:policyId/disable': async () => {
    const id = await policy();
    await asAdmin(`portals/${svc.orgId}/memberLifecycle/policies/${id}/enable`);
    return { url: `${ORG()}/memberLifecycle/policies/${id}/disable` };
  },
  'portals/:orgId/memberLifecycle/policies/:policyId/runs/:policyRunId/undo': async () => {
    const id = await policy();
    await asAdmin(`portals/${svc.orgId}/memberLifecycle/policies/${id}/enable`);
    await new MemberLifecycleRunner(svc.app.portal).runDue();
    const { runs } = await asAdmin(`portals/${svc.orgId}/memberLifecycle/policies/${id}/runs`);
    return { url: `${ORG()}/memberLifecycle/policies/${id}/runs/${runs[0].id}/undo` };
  },
  'portals/:orgId/collaborations/:collaborationId/addWorkspace': async () => ({
    url: `${ORG()}/collaborations/${await collaboration()}/addWorkspace`,
    params: { name: `W ${uid()}` },
  }),
  // An invitation needs a second organization (invitation-expiry.test.ts): an allowed caller reaches the lookup.
  'portals/:orgId/collaborations/:collaborationId/invitations/:invitationId/refresh': async () => ({
    url: `${ORG()}/collaborations/${await collaboration()}/invitations/none/refresh`,
    reached: /Invitation 'none' does not exist/,
  }),
  'portals/:orgId/collaborations/:collaborationId/invitations/:invitationId/invalidate': async () => ({
    url: `${ORG()}/collaborations/${await collaboration()}/invitations/none/invalidate`,
    reached: /Invitation 'none' does not exist/,
  }),
  // Bulk member jobs (local extras): started on a member of the organization (the runner is not started here).
  'portals/:orgId/memberJobs/disableUsers': async () => ({ url: `${ORG()}/memberJobs/disableUsers`, params: { usernames: await member() } }),
  'portals/:orgId/memberJobs/enableUsers': async () => ({ url: `${ORG()}/memberJobs/enableUsers`, params: { usernames: await member() } }),
  'portals/:orgId/memberJobs/updateUserRoles': async () => ({
    url: `${ORG()}/memberJobs/updateUserRoles`,
    params: { usernames: await member(), newRole: 'org_publisher' },
  }),
  'portals/:orgId/memberJobs/updateUserLicenseTypes': async () => ({
    url: `${ORG()}/memberJobs/updateUserLicenseTypes`,
    params: { usernames: await member(), newUserLicenseType: 'creatorUT' },
  }),
  'portals/:orgId/memberJobs/removeUsers': async () => ({ url: `${ORG()}/memberJobs/removeUsers`, params: { usernames: await member() } }),
  'portals/:orgId/memberJobs/addUsersToGroups': async () => ({
    url: `${ORG()}/memberJobs/addUsersToGroups`,
    params: { usernames: await member(), groupIds: await group() },
  }),
  'portals/:orgId/memberJobs': async () => ({ url: `${ORG()}/memberJobs` }),
  'portals/:orgId/memberJobs/:jobId': async () => ({ url: `${ORG()}/memberJobs/${await memberJob()}` }),
  'portals/:orgId/memberJobs/:jobId/results': async () => ({ url: `${ORG()}/memberJobs/${await memberJob()}/results` }),
  'portals/:orgId/memberJobs/:jobId/pause': async () => ({ url: `${ORG()}/memberJobs/${await memberJob()}/pause` }),
  'portals/:orgId/memberJobs/:jobId/resume': async () => ({ url: `${ORG()}/memberJobs/${await memberJob(true)}/resume` }),
  'portals/:orgId/memberJobs/:jobId/cancel': async () => ({ url: `${ORG()}/memberJobs/${await memberJob()}/cancel` }),
  // Only a finished job can be undone: a running one answers that, past the authority.
  'portals/:orgId/memberJobs/:jobId/undo': async () => ({ url: `${ORG()}/memberJobs/${await memberJob()}/undo`, reached: /only a finished or cancelled job/ }),
};

/** A bulk disable job of the administrator's on a new member, paused when asked. */
async function memberJob(paused = false): Promise<string> {
  const { jobId } = await asAdmin(`portals/${svc.orgId}/memberJobs/disableUsers`, { usernames: await member() });
  if (paused) await asAdmin(`portals/${svc.orgId}/memberJobs/${jobId}/pause`);
  return jobId as string;
}

/**
 * Operations with a target in their path that the matrix does not try, each with the reason. Kept
 * short on purpose: every entry is a place where the declaration is trusted without a cell.
 */
const NOT_TRIED: Record<string, string> = {
  // A participant or invitation exists only between two organizations: collaborations.test.ts
  // tries these with manageCollaborations and without.
  'portals/:orgId/collaborations/acceptInvitation': 'needs an invitation from another organization',
  'portals/:orgId/acceptCollaborationInvitation': 'needs an invitation file from another organization',
  'portals/:orgId/collaborations/declineInvitation': 'needs an invitation from another organization',
  'portals/:orgId/collaborations/:collaborationId/participants/:portalId': 'needs a second organization as participant',
  'portals/:orgId/collaborations/:collaborationId/participants/:portalId/remove': 'needs a second organization as participant',
  'portals/:orgId/collaborations/:collaborationId/removeParticipation': 'a guest organization leaves; needs a host',
  'portals/:orgId/collaborations/:collaborationId/inviteParticipant': 'needs a second organization to invite',
};

function serviceWebhookFixtures(folderSegment: '' | '/:folder'): Record<string, () => Promise<Cell>> {
  const base = async () => {
    const s = await service(folderSegment ? 'Transport' : undefined);
    return `/server/${s.server}/admin/services${folderSegment ? '/Transport' : ''}/${s.service}`;
  };
  const hookOf = async () => {
    const b = await base();
    const res = await call(`${b}/webhooks/create`, { name: `sw${uid()}`, hookUrl: 'http://127.0.0.1:9/sw' }, adminToken);
    if (res.error) throw new Error(`service webhook: ${JSON.stringify(res.error)}`);
    return `${b}/webhooks/${res.id ?? res.webhook?.id ?? 'none'}`;
  };
  const p = `/server/:serverId/admin/services${folderSegment}/:service/webhooks`;
  return {
    [p]: async () => ({ url: `${await base()}/webhooks` }),
    [`${p}/create`]: async () => ({ url: `${await base()}/webhooks/create`, params: { name: `sw${uid()}`, hookUrl: 'http://127.0.0.1:9/sw2' } }),
    [`${p}/:webhookId`]: async () => ({ url: await hookOf() }),
    [`${p}/:webhookId/edit`]: async () => ({ url: `${await hookOf()}/edit`, params: { name: `sw${uid()}`, hookUrl: 'http://127.0.0.1:9/sw3' } }),
    [`${p}/:webhookId/delete`]: async () => ({ url: `${await hookOf()}/delete` }),
  };
}

/** Another member's email address: what portal:admin:viewUsers shows beyond a member's view of the organization. */
const othersEmail = (caller: string) => (u: { username: string; email?: string; orgId?: string }) =>
  !!u.email && u.username !== caller && !u.username.startsWith('matrix.') && (u.orgId === undefined || u.orgId === svc.orgId);

const reportTask = { type: 'ExecuteReport', parameters: JSON.stringify({ reportType: 'members' }), ...schedule };

async function multipartItem(): Promise<string> {
  const body = await asAdmin('content/users/admin/addItem', { title: `Upload ${uid()}`, type: 'CSV', multipart: 'true', filename: 'a.csv' });
  return body.id as string;
}

const role = () => insertRole(svc.db, svc.orgId, ['portal:user:joinGroup']);

async function unshareCell(url: (id: string) => string): Promise<Cell> {
  const [id, groupId] = [await item(), await group()];
  await asAdmin(`content/users/admin/items/${id}/share`, { groups: groupId });
  return { url: url(id), params: { groups: groupId, items: id }, shown: (b) => !b.notUnsharedFrom?.length && b.results?.[0]?.notUnsharedFrom?.length !== 1 };
}

/** A refusal that does not confirm the object (400/404), or an `own` operation refusing a group the caller is not in. */
const REFUSED_MESSAGE = /does not exist or is inaccessible|not found|inaccessible|must be your own|by invitation only|not a member of this group/i;

async function outcome(body: any, cell: Cell, caller: string): Promise<'allowed' | 'refused' | 'unexpected'> {
  const err = body?.error;
  if (err && cell.reached?.test(`${err.message} ${(err.details ?? []).join(' ')}`)) return 'allowed';
  if (!err) return cell.shown && !(await cell.shown(body, caller)) ? 'refused' : 'allowed';
  if (err.code === 403) return 'refused';
  if ((err.code === 400 || err.code === 404) && REFUSED_MESSAGE.test(`${err.message} ${(err.details ?? []).join(' ')}`)) return 'refused';
  return 'unexpected';
}

const keyOf = (path: string) => (path.startsWith(`${REST}/`) ? path.slice(REST.length + 1) : path);

/** An admin's private item with a service proxy to a loopback port nobody listens on: a caller let through gets 502. */
const proxied = async () =>
  (
    await asAdmin('content/users/admin/addItem', {
      title: `Proxied ${uid()}`,
      type: 'Map Service',
      url: 'http://127.0.0.1:9/arcgis/rest/services/x/MapServer',
      service: JSON.stringify({ hitsPerInterval: 100000 }),
    })
  ).id as string;
const UNREACHED_UPSTREAM = /could not be reached/;
let signInAppId: string | undefined;
const signInApp = async () => (signInAppId ??= await app());
/** An S256 code challenge (RFC 7636's example): the sign-in page requires PKCE. */
const PKCE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * Routes the server registers outside the operation table (their own handlers), each with its
 * fixture and who may use it on another member's object: an authority as the operations declare
 * it, or `anyone` (every caller, of any organization or none, by design; `why` says why).
 */
const OUTSIDE_ROUTES: Record<string, { fixture: () => Promise<Cell>; authority: Authority | 'anyone'; why: string }> = {
  // The proxy answers whoever may read the item (visibleItem), as the item's own description does.
  [`${REST}/content/items/:itemId/proxy`]: {
    fixture: async () => ({ url: `${REST}/content/items/${await proxied()}/proxy`, reached: UNREACHED_UPSTREAM }),
    authority: { kind: 'visible', widenedBy: ['portal:admin:viewItems'] },
    why: 'the item proxy: who may read the item',
  },
  [`${REST}/content/items/:itemId/proxy/*`]: {
    fixture: async () => ({ url: `${REST}/content/items/${await proxied()}/proxy/0/query`, params: { where: '1=1' }, reached: UNREACHED_UPSTREAM }),
    authority: { kind: 'visible', widenedBy: ['portal:admin:viewItems'] },
    why: 'the item proxy: who may read the item',
  },
  // The sign-in page of the administrator's app: shown to anyone (that is its purpose); what it
  // grants is decided by the username and password posted to it, never by who opened it.
  ...Object.fromEntries(
    ['/sharing/rest/oauth2/authorize', '/sharing/oauth2/authorize'].map((path) => [
      path,
      {
        // One app for every cell: opening the page changes nothing the next cell would see.
        fixture: async () => ({
          url: `${path}?${new URLSearchParams({ client_id: await signInApp(), response_type: 'code', redirect_uri: 'http://127.0.0.1:5999/cb', code_challenge_method: 'S256', code_challenge: PKCE_CHALLENGE })}`,
          method: 'GET' as const,
          shown: (b: any) => /<form/i.test(b.body ?? ''),
        }),
        authority: 'anyone' as const,
        why: 'the OAuth sign-in page',
      },
    ]),
  ),
};

/** Registered routes that are not the REST interface: the console's configuration, its files and CORS preflights (`*`). */
const CONSOLE_ROUTES = new Set(['/console-config.json', '*']);

/**
 * A path as the printed tree shows it: a parameter's name is lost where routes share the node
 * (`:service|:folder`), and a wildcard's slash is printed with its parent.
 */
const shape = (path: string) => path.replace(/:[\w]+(\|:[\w]+)*/g, ':').replace(/\/?\*$/, '*');

/** Every route the router holds (its path's shape), with its methods, read from Fastify's printed route tree. */
function registeredRoutes(): { path: string; methods: string[] }[] {
  const routes: { path: string; methods: string[] }[] = [];
  const prefixes: string[] = [];
  for (const line of svc.app.printRoutes().split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const path = (depth ? prefixes[depth - 1] : '') + m[2];
    prefixes.length = depth;
    prefixes[depth] = path;
    if (m[3]) routes.push({ path: shape(path), methods: m[3].split(', ') });
  }
  return routes;
}

/** What each registered route is tried as: a declared operation's authority, or an OUTSIDE_ROUTES entry. */
function matrixRoutes(): { path: string; authority: Authority | 'anyone'; fixture?: () => Promise<Cell> }[] {
  const declared = new Map(svc.app.operations.map((op) => [shape(op.path), op] as const));
  const outside = new Map(Object.entries(OUTSIDE_ROUTES).map(([path, entry]) => [shape(path), { path, ...entry }] as const));
  return [...new Set(registeredRoutes().map((r) => r.path))].flatMap((shaped) => {
    const op = declared.get(shaped);
    if (op) return [{ path: op.path, authority: op.authority, fixture: FIXTURES[keyOf(op.path)] }];
    const entry = outside.get(shaped);
    return entry ? [{ path: entry.path, authority: entry.authority, fixture: entry.fixture }] : [];
  });
}

function expectedFor(authority: Authority | 'anyone', actor: Actor): 'allowed' | 'refused' {
  if (authority === 'anyone') return 'allowed';
  // Another organization's members reach nothing of this one, whatever they hold in their own.
  if (actor.org !== 'demo') return 'refused';
  // Custom roles are never default administrators, whatever they hold.
  return authorityGrants(authority, { privileges: actor.held, isDefaultAdmin: false }) ? 'allowed' : 'refused';
}

export function describePrivilegeMatrix(shard: number, shards: number): void {
  beforeAll(async () => {
    // The shards of a worker share this module (isolate: false): start from no actors and no app.
    actors.length = 0;
    signInAppId = undefined;
    svc = await startService();
    adminToken = await svc.tokenFor('admin');
    [{ id: adminId }] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    for (const set of ROLE_SETS) {
      const privileges = [...BASE_ROLE_PRIVILEGES.org_user, ...set];
      const { username } = await insertCustomRoleMember(svc.db, svc.orgId, privileges, `matrix.${uid()}`);
      actors.push({ label: set.join('+'), username, org: 'demo', held: rolePrivileges('org_user', privileges), token: await svc.tokenFor(username) });
    }
    // The demo Viewer, with the built-in Viewer role's privileges.
    actors.push({
      label: 'viewer1 (Viewer)',
      username: 'viewer1',
      org: 'demo',
      held: rolePrivileges('org_user', BUILT_IN_ROLES[0].privileges),
      token: await svc.tokenFor('viewer1'),
    });
    // The second organization: its default administrator, every administrative privilege, a plain member.
    const allAdmin = [...BASE_ROLE_PRIVILEGES.org_user, ...SINGLES.flat()];
    const strong = await insertCustomRoleMember(svc.db, svc.partnerOrgId, allAdmin, `matrix.partner.${uid()}`);
    const plain = `matrix.partner.${uid()}`;
    await insertMember(svc.db, plain, svc.partnerOrgId);
    actors.push(
      { label: 'partner_admin (Partner Organization)', username: 'partner_admin', org: 'partner', held: new Set(), token: await svc.tokenFor('partner_admin') },
      {
        label: 'every admin privilege (Partner Organization)',
        username: strong.username,
        org: 'partner',
        held: new Set(),
        token: await svc.tokenFor(strong.username),
      },
      { label: 'plain member (Partner Organization)', username: plain, org: 'partner', held: new Set(), token: await svc.tokenFor(plain) },
    );
  }, 120_000);
  afterAll(() => svc.close());

  describe('the generated privilege matrix', () => {
    // Once, in the first shard: the routes read from the router, whatever the shards.
    it.runIf(shard === 0)(
      'every route the server registers is a declared operation or listed with its rule, and has a fixture where it can reach what another member owns',
      () => {
        const declared = new Set(svc.app.operations.map((op) => shape(op.path)));
        const outside = new Set(Object.keys(OUTSIDE_ROUTES).map(shape));
        const routes = new Set(registeredRoutes().map((r) => r.path));
        // The parse found the routes: every declared operation among them.
        expect([...declared].filter((p) => !routes.has(p))).toEqual([]);
        const unlisted = [...routes].filter((p) => !declared.has(p) && !outside.has(p) && !CONSOLE_ROUTES.has(p));
        expect(unlisted).toEqual([]);
        const reaching = svc.app.operations.filter((op) => TARGET_PARAMS.test(op.path) || op.authority.kind !== 'own');
        const missing = reaching.map((op) => keyOf(op.path)).filter((k) => !FIXTURES[k] && !NOT_TRIED[k]);
        expect(missing).toEqual([]);
        // No stale fixture: each names a declared operation, each outside route a registered one.
        const keys = new Set(svc.app.operations.map((op) => keyOf(op.path)));
        expect(Object.keys(FIXTURES).filter((k) => !keys.has(k))).toEqual([]);
        expect([...outside].filter((p) => !routes.has(p))).toEqual([]);
      },
    );

    it('allows each route exactly where its declared authority grants it, in its organization only', async () => {
      const wrong: string[] = [];
      const tried = new Set<string>();
      let cells = 0;
      const routes = matrixRoutes().filter((_, i) => i % shards === shard);
      for (const route of routes) {
        if (!route.fixture) continue;
        tried.add(route.path);
        // A call answered with an error leaves its object as it was (the operation wrapper decides before
        // the handler runs), so the next actor tries the same one: only a call that succeeded (even one
        // that did not reach this organization's object) costs a fresh object. Most cells are refusals;
        // a fixture per cell was half of the matrix's time.
        let cell: Cell | undefined;
        for (const actor of actors) {
          try {
            cell ??= await route.fixture();
          } catch (err) {
            wrong.push(`${keyOf(route.path)}: the fixture failed: ${(err as Error).message}`);
            break;
          }
          const body = await call(cell.url, cell.params ?? {}, actor.token, cell.file, cell.method);
          const got = await outcome(body, cell, actor.username);
          const expected = cell.anyone ? 'allowed' : expectedFor(route.authority, actor);
          if (got !== 'refused' || !body?.error) cell = undefined;
          cells++;
          if (got !== expected) wrong.push(`${keyOf(route.path)} with ${actor.label}: expected ${expected}, got ${got} ${JSON.stringify(body).slice(0, 240)}`);
        }
      }
      const orgs = new Set(actors.map((a) => a.org)).size;
      console.info(`privilege matrix, shard ${shard + 1} of ${shards}: ${tried.size} routes × ${actors.length} roles (${orgs} organizations) = ${cells} cells`);
      if (process.env.MATRIX_REPORT) writeFileSync(`${process.env.MATRIX_REPORT}.${shard + 1}`, wrong.join('\n'));
      expect(wrong).toEqual([]);
      // Each route listed outside the operation table is tried by the shard it falls to.
      const ours = new Set(routes.map((r) => r.path));
      for (const path of Object.keys(OUTSIDE_ROUTES)) if (ours.has(path)) expect(tried).toContain(path);
      expect(cells).toBeGreaterThan(3000 / shards);
    }, 900_000);
  });
}
