/** SQL of federated servers, their services and the services' webhooks. */
import type { ScheduleInfo, ServiceType } from '../../../shared/contract/webhooks.ts';
import type { Queryable } from '../../store/db.ts';

export interface ServerRow {
  id: string;
  org_id: string;
  name: string;
  url: string;
  admin_url: string;
  server_role: string;
  created: number;
}

export interface ServiceRow {
  server_id: string;
  folder_name: string;
  service_name: string;
  service_type: ServiceType;
  item_id: string | null;
  owner_id: string;
  created: number;
}

export interface ServiceWebhookRow {
  id: string;
  server_id: string;
  folder_name: string;
  service_name: string;
  service_type: ServiceType;
  name: string;
  change_types: string[];
  signature_key: string;
  hook_url: string;
  active: boolean;
  content_type: string;
  schedule_info: ScheduleInfo | Record<string, never>;
  payload_format: string;
  owner: string;
  modified_id: string;
  created: number;
  modified: number;
}

/** A service, named the way the administration path names it. */
export interface ServiceKey {
  serverId: string;
  folderName: string;
  serviceName: string;
  serviceType: ServiceType;
}

export async function insertServer(q: Queryable, s: ServerRow): Promise<void> {
  await q.query('INSERT INTO federated_servers (id, org_id, name, url, admin_url, server_role, created) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    s.id,
    s.org_id,
    s.name,
    s.url,
    s.admin_url,
    s.server_role,
    s.created,
  ]);
}

export async function findServer(q: Queryable, id: string): Promise<ServerRow | undefined> {
  const [row] = await q.query<ServerRow>('SELECT * FROM federated_servers WHERE id = $1', [id]);
  return row ? { ...row, created: Number(row.created) } : undefined;
}

export async function listServers(q: Queryable, orgId: string): Promise<ServerRow[]> {
  const rows = await q.query<ServerRow>('SELECT * FROM federated_servers WHERE org_id = $1 ORDER BY created, id', [orgId]);
  return rows.map((r) => ({ ...r, created: Number(r.created) }));
}

export async function insertService(q: Queryable, s: ServiceRow): Promise<void> {
  await q.query(
    `INSERT INTO federated_services (server_id, folder_name, service_name, service_type, item_id, owner_id, created) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.server_id, s.folder_name, s.service_name, s.service_type, s.item_id, s.owner_id, s.created],
  );
}

const keyParams = (k: ServiceKey) => [k.serverId, k.folderName, k.serviceName, k.serviceType];

export async function findService(q: Queryable, k: ServiceKey): Promise<(ServiceRow & { owner: string }) | undefined> {
  const [row] = await q.query<ServiceRow & { owner: string }>(
    `SELECT s.*, u.username AS owner FROM federated_services s JOIN users u ON u.id = s.owner_id
      WHERE s.server_id = $1 AND s.folder_name = $2 AND s.service_name = $3 AND s.service_type = $4`,
    keyParams(k),
  );
  return row;
}

export async function listServices(q: Queryable, serverId: string): Promise<(ServiceRow & { owner: string; webhook_count: number })[]> {
  return q.query(
    `SELECT s.*, u.username AS owner,
            (SELECT count(*)::int FROM service_webhooks w WHERE w.server_id = s.server_id AND w.folder_name = s.folder_name
               AND w.service_name = s.service_name AND w.service_type = s.service_type) AS webhook_count
       FROM federated_services s JOIN users u ON u.id = s.owner_id
      WHERE s.server_id = $1 ORDER BY s.folder_name, s.service_name, s.service_type`,
    [serverId],
  );
}

export async function countServiceWebhooks(q: Queryable, k: ServiceKey): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM service_webhooks WHERE server_id = $1 AND folder_name = $2 AND service_name = $3 AND service_type = $4',
    keyParams(k),
  );
  return n;
}

export async function listServiceWebhooksOf(q: Queryable, k: ServiceKey): Promise<ServiceWebhookRow[]> {
  const rows = await q.query<ServiceWebhookRow>(
    'SELECT * FROM service_webhooks WHERE server_id = $1 AND folder_name = $2 AND service_name = $3 AND service_type = $4 ORDER BY created, id',
    keyParams(k),
  );
  return rows.map(normalise);
}

/** Every service webhook of the servers federated with `orgId`, optionally of one owner, with the service's item id. */
export async function listOrgServiceWebhooks(q: Queryable, orgId: string, owner?: string): Promise<(ServiceWebhookRow & { item_id: string | null })[]> {
  const rows = await q.query<ServiceWebhookRow & { item_id: string | null }>(
    `SELECT w.*, s.item_id
       FROM service_webhooks w
       JOIN federated_servers f ON f.id = w.server_id
       JOIN federated_services s ON s.server_id = w.server_id AND s.folder_name = w.folder_name AND s.service_name = w.service_name AND s.service_type = w.service_type
      WHERE f.org_id = $1 AND ($2::text IS NULL OR lower(w.owner) = lower($2))
      ORDER BY w.created, w.id`,
    [orgId, owner ?? null],
  );
  return rows.map(normalise);
}

export async function findServiceWebhook(q: Queryable, k: ServiceKey, id: string, lock = false): Promise<ServiceWebhookRow | undefined> {
  const [row] = await q.query<ServiceWebhookRow>(
    `SELECT * FROM service_webhooks WHERE server_id = $1 AND folder_name = $2 AND service_name = $3 AND service_type = $4 AND id = $5${lock ? ' FOR UPDATE' : ''}`,
    [...keyParams(k), id],
  );
  return row ? normalise(row) : undefined;
}

export async function insertServiceWebhook(q: Queryable, w: ServiceWebhookRow): Promise<void> {
  await q.query(
    `INSERT INTO service_webhooks (id, server_id, folder_name, service_name, service_type, name, change_types, signature_key, hook_url, active,
                                   content_type, schedule_info, payload_format, owner, modified_id, created, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [
      w.id,
      w.server_id,
      w.folder_name,
      w.service_name,
      w.service_type,
      w.name,
      w.change_types,
      w.signature_key,
      w.hook_url,
      w.active,
      w.content_type,
      JSON.stringify(w.schedule_info),
      w.payload_format,
      w.owner,
      w.modified_id,
      w.created,
      w.modified,
    ],
  );
}

export async function updateServiceWebhook(
  q: Queryable,
  id: string,
  w: Pick<
    ServiceWebhookRow,
    'name' | 'change_types' | 'signature_key' | 'hook_url' | 'active' | 'content_type' | 'schedule_info' | 'payload_format' | 'modified_id' | 'modified'
  >,
): Promise<void> {
  await q.query(
    `UPDATE service_webhooks SET name = $2, change_types = $3, signature_key = $4, hook_url = $5, active = $6, content_type = $7,
            schedule_info = $8, payload_format = $9, modified_id = $10, modified = $11 WHERE id = $1`,
    [
      id,
      w.name,
      w.change_types,
      w.signature_key,
      w.hook_url,
      w.active,
      w.content_type,
      JSON.stringify(w.schedule_info),
      w.payload_format,
      w.modified_id,
      w.modified,
    ],
  );
}

export async function deleteServiceWebhook(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM service_webhooks WHERE id = $1', [id]);
}

/** Bigint columns come back as strings from node-postgres. */
function normalise<T extends ServiceWebhookRow>(row: T): T {
  return { ...row, created: Number(row.created), modified: Number(row.modified) };
}

/** The id of the organization's member named `username` (any case), if there is one: a service's owner. */
export async function memberIdByName(q: Queryable, orgId: string, username: string): Promise<string | undefined> {
  const [u] = await q.query<{ id: string }>('SELECT id FROM users WHERE org_id = $1 AND lower(username) = lower($2)', [orgId, username]);
  return u?.id;
}

/** Whether `itemId` is an item of the organization: the item a service is registered with. */
export async function isItemOfOrg(q: Queryable, orgId: string, itemId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM items WHERE org_id = $1 AND id = $2', [orgId, itemId])).length > 0;
}

/** The organization's members, by id and username (the demo data's owners). */
export async function membersOf(q: Queryable, orgId: string): Promise<{ id: string; username: string }[]> {
  return q.query<{ id: string; username: string }>('SELECT id, username FROM users WHERE org_id = $1', [orgId]);
}
