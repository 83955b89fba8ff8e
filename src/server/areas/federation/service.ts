/**
 * Federated servers, their feature and geoprocessing services, and the services' webhooks
 * (spec §2 "Service webhook", §3 "Service webhook schedule state", §4.4; facts §3.3).
 *
 * Who may do what (documented in docs/webhooks.md):
 * - Registering a server or a service: administrators of the organization with
 *   portal:admin:manageServers.
 * - A service's webhooks: administrators with portal:admin:manageWebhooks on any service of the
 *   organization's servers; otherwise the service's owner holding the type's privilege
 *   (portal:publisher:createFeatureWebhook for FeatureServer, portal:admin:createGPWebhook for
 *   GPServer). Another organization's server is 403.
 * - listServiceWebhooks: administrators with portal:admin:manageWebhooks.
 *
 * Local choices: the signature key is shown once, in the create answer, and masked afterwards
 * like an organization webhook's secret; a geoprocessing webhook's changeTypes is ["*"] and its
 * scheduleInfo {} (anything else is a 400); the hook URL passes the outbound guard. Service
 * webhooks are registered and listed; the local portal has no feature editing or geoprocessing
 * jobs, so nothing invokes them.
 */
import type { HistoryData, HistoryOperation } from '../../../shared/contract/history.ts';
import { recordEvent } from '../../store/events.ts';
import {
  MAX_WEBHOOKS_PER_SERVICE,
  SECRET_MASK,
  type FederatedServerRecord,
  type FederatedServiceRecord,
  type ScheduleInfo,
  type ServiceType,
  type ServiceWebhookRecord,
} from '../../../shared/contract/webhooks.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { orgTarget, type Target } from '../../http/target.ts';
import { checkOutboundUrl, OutboundRefused } from '../../http/outbound.ts';
import type { Queryable } from '../../store/db.ts';
import { alnumId, hexId } from '../../store/ids.ts';
import * as repo from './repo.ts';

/** The default cataloguing window of a feature-service webhook: every 20 seconds, enabled. */
export function defaultSchedule(now: number): ScheduleInfo {
  return { name: 'Every-20seconds', state: 'enabled', startAt: now, recurrenceInfo: { frequency: 'second', interval: 20 } };
}

export const serverNotFound = (id: string) => new ApiError(404, `Server '${id}' does not exist.`, [`Server '${id}' does not exist.`]);
export const serviceNotFound = (k: repo.ServiceKey) => {
  const name = `${k.folderName ? `${k.folderName}/` : ''}${k.serviceName}.${k.serviceType}`;
  return new ApiError(404, `Service '${name}' does not exist.`, [`Service '${name}' does not exist.`]);
};
const webhookNotFound = (id: string) => new ApiError(404, `Webhook '${id}' does not exist.`, [`Webhook '${id}' does not exist.`]);

/** `name.Type` from the path, e.g. `Parcels.FeatureServer`. */
export function parseServiceRef(serverId: string, folder: string | undefined, ref: string): repo.ServiceKey {
  const dot = ref.lastIndexOf('.');
  const type = ref.slice(dot + 1);
  if (dot <= 0 || (type !== 'FeatureServer' && type !== 'GPServer')) {
    throw new ApiError(400, 'Invalid URL', [`'${ref}' must be <serviceName>.FeatureServer or <serviceName>.GPServer.`], 'GWM_0002');
  }
  return { serverId, folderName: folder ?? '', serviceName: ref.slice(0, dot), serviceType: type };
}

/** A service whose webhooks an operation manages, authorized by the operation (target.ts: SERVICE_WEBHOOKS). */
export interface ServiceToManage {
  key: repo.ServiceKey;
  service: repo.ServiceRow & { owner: string };
}

/** The authorized service, looked up again inside a change's transaction (it may have gone since). */
async function stillThere(q: Queryable, k: repo.ServiceKey) {
  const service = await repo.findService(q, k);
  if (!service) throw serviceNotFound(k);
  return service;
}

export function toServerRecord(s: repo.ServerRow): FederatedServerRecord {
  return { id: s.id, name: s.name, url: s.url, adminUrl: s.admin_url, serverRole: s.server_role, serverType: 'ArcGIS', created: s.created };
}

export function toServiceWebhookRecord(w: repo.ServiceWebhookRow, itemId: string | null): ServiceWebhookRecord {
  return {
    id: w.id,
    folderName: w.folder_name,
    serviceName: w.service_name,
    serviceType: w.service_type,
    name: w.name,
    changeTypes: w.change_types,
    signatureKey: w.signature_key ? SECRET_MASK : '',
    hookUrl: w.hook_url,
    active: w.active,
    contentType: w.content_type,
    scheduleInfo: w.schedule_info,
    payloadFormat: w.payload_format,
    createdTime: w.created,
    lastUpdatedTime: w.modified,
    owner: w.owner,
    modifiedId: w.modified_id,
    itemId,
    created: w.created,
    modified: w.modified,
    ownerId: w.owner,
    serverId: w.server_id,
  };
}

async function checkHookUrl(ctx: PortalContext, url: string): Promise<string> {
  try {
    return (await checkOutboundUrl(url, ctx.config)).url.toString();
  } catch (err) {
    if (err instanceof OutboundRefused) throw badParam('hookUrl', err.message);
    throw err;
  }
}

export interface ServiceWebhookInput {
  name: string;
  changeTypes?: string[];
  signatureKey?: string;
  hookUrl: string;
  active?: boolean;
  contentType?: string;
  scheduleInfo?: ScheduleInfo | Record<string, never>;
  payloadFormat?: string;
}

/** The triggers and schedule the service type allows. */
function triggersFor(type: ServiceType, p: ServiceWebhookInput, now: number, current?: repo.ServiceWebhookRow) {
  const hasSchedule = p.scheduleInfo !== undefined && Object.keys(p.scheduleInfo).length > 0;
  if (type === 'GPServer') {
    if (p.changeTypes && (p.changeTypes.length !== 1 || p.changeTypes[0] !== '*')) {
      throw badParam('changeTypes', 'must be ["*"] for a geoprocessing webhook: it fires when a job succeeds, is canceled or fails');
    }
    if (hasSchedule) throw badParam('scheduleInfo', 'must be empty for a geoprocessing webhook');
    return { change_types: ['*'], schedule_info: {} as Record<string, never> };
  }
  const requested = p.changeTypes?.length ? [...new Set(p.changeTypes)] : (current?.change_types ?? ['*']);
  // `*` already means every trigger; listing others with it is redundant.
  const change_types = requested.includes('*') ? ['*'] : requested;
  const schedule_info = hasSchedule ? (p.scheduleInfo as ScheduleInfo) : (current?.schedule_info ?? defaultSchedule(now));
  return { change_types, schedule_info };
}

/** What history keeps of a service webhook (never its signature key). */
function serviceWebhookView(w: repo.ServiceWebhookRow): Record<string, unknown> {
  return {
    name: w.name,
    service: `${w.folder_name ? `${w.folder_name}/` : ''}${w.service_name}/${w.service_type}`,
    serverId: w.server_id,
    changeTypes: w.change_types,
    hookUrl: w.hook_url,
    active: w.active,
    contentType: w.content_type,
    scheduleInfo: w.schedule_info,
    payloadFormat: w.payload_format,
  };
}

/** A service webhook change in the organization's history (idType w). */
async function recordServiceWebhookEvent(
  q: Queryable,
  caller: Caller,
  w: repo.ServiceWebhookRow,
  op: HistoryOperation,
  data: HistoryData,
  now: number,
): Promise<void> {
  await recordEvent(q, {
    orgId: caller.orgId,
    source: 'webhook',
    operation: op,
    subjectId: w.id,
    actor: actorOf(caller),
    when: now,
    history: { op, owner: w.owner, title: w.name, data },
  });
}

/** Adds a webhook to the service `target` (authorized by the operation: SERVICE_WEBHOOKS). */
export async function createServiceWebhook(ctx: PortalContext, caller: Caller, target: ServiceToManage, p: ServiceWebhookInput) {
  const k = target.key;
  if (p.signatureKey === SECRET_MASK) throw badParam('signatureKey', 'must be alphanumeric');
  const hookUrl = await checkHookUrl(ctx, p.hookUrl);
  const now = ctx.clock.now();
  const id = hexId();
  const { change_types, schedule_info } = triggersFor(k.serviceType, p, now);
  const row: repo.ServiceWebhookRow = await ctx.db.tx(async (q) => {
    await stillThere(q, k);
    if ((await repo.countServiceWebhooks(q, k)) >= MAX_WEBHOOKS_PER_SERVICE) {
      throw new ApiError(400, `A service has at most ${MAX_WEBHOOKS_PER_SERVICE} webhooks.`, [`A service has at most ${MAX_WEBHOOKS_PER_SERVICE} webhooks.`]);
    }
    const w: repo.ServiceWebhookRow = {
      id,
      server_id: k.serverId,
      folder_name: k.folderName,
      service_name: k.serviceName,
      service_type: k.serviceType,
      name: p.name,
      change_types,
      signature_key: p.signatureKey ?? '',
      hook_url: hookUrl,
      active: p.active ?? true,
      content_type: p.contentType ?? 'application/json',
      schedule_info,
      payload_format: p.payloadFormat ?? 'json',
      owner: caller.username,
      modified_id: caller.username,
      // A webhook just created: lastUpdatedTime equals createdTime.
      created: now,
      modified: now,
    };
    await repo.insertServiceWebhook(q, w);
    await recordServiceWebhookEvent(q, caller, w, 'createServiceWebhook', { after: serviceWebhookView(w) }, now);
    return w;
  });
  const service = await repo.findService(ctx.db, k);
  // The signature key is shown here, once.
  return { ...toServiceWebhookRecord(row, service?.item_id ?? null), signatureKey: row.signature_key, success: true };
}

/**
 * Edit replaces name and hookUrl (both required, as on the real server); anything else not sent
 * keeps its value. A signatureKey of SECRET_MASK keeps the stored key; "" removes it.
 */
export async function editServiceWebhook(ctx: PortalContext, caller: Caller, target: ServiceToManage, id: string, p: ServiceWebhookInput) {
  const k = target.key;
  const hookUrl = await checkHookUrl(ctx, p.hookUrl);
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const service = await stillThere(q, k);
    const current = await repo.findServiceWebhook(q, k, id, true);
    if (!current) throw webhookNotFound(id);
    const { change_types, schedule_info } = triggersFor(k.serviceType, p, now, current);
    const next = {
      name: p.name,
      change_types,
      signature_key: p.signatureKey === undefined || p.signatureKey === SECRET_MASK ? current.signature_key : p.signatureKey,
      hook_url: hookUrl,
      active: p.active ?? current.active,
      content_type: p.contentType ?? current.content_type,
      schedule_info,
      payload_format: p.payloadFormat ?? current.payload_format,
      modified_id: caller.username,
      modified: Math.max(now, current.created),
    };
    await repo.updateServiceWebhook(q, id, next);
    const was = serviceWebhookView(current);
    const becomes = serviceWebhookView({ ...current, ...next });
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of Object.keys(becomes)) if (JSON.stringify(was[key]) !== JSON.stringify(becomes[key])) [before[key], after[key]] = [was[key], becomes[key]];
    // Never the signature key itself: only that it changed.
    if (next.signature_key !== current.signature_key) [before.signatureKey, after.signatureKey] = ['changed', 'changed'];
    await recordServiceWebhookEvent(q, caller, { ...current, ...next }, 'updateServiceWebhook', { before, after }, now);
    return { ...toServiceWebhookRecord({ ...current, ...next }, service.item_id), success: true };
  });
}

export async function deleteServiceWebhook(ctx: PortalContext, caller: Caller, target: ServiceToManage, id: string) {
  const k = target.key;
  await ctx.db.tx(async (q) => {
    await stillThere(q, k);
    const current = await repo.findServiceWebhook(q, k, id, true);
    if (!current) throw webhookNotFound(id);
    await repo.deleteServiceWebhook(q, id);
    await recordServiceWebhookEvent(q, caller, current, 'deleteServiceWebhook', { before: serviceWebhookView(current) }, ctx.clock.now());
  });
  return { success: true };
}

export async function serviceWebhooks(ctx: PortalContext, { key: k, service }: ServiceToManage) {
  return { webhooks: (await repo.listServiceWebhooksOf(ctx.db, k)).map((w) => toServiceWebhookRecord(w, service.item_id)) };
}

export async function serviceWebhook(ctx: PortalContext, { key: k, service }: ServiceToManage, id: string) {
  const w = await repo.findServiceWebhook(ctx.db, k, id);
  if (!w) throw webhookNotFound(id);
  return toServiceWebhookRecord(w, service.item_id);
}

/** The organization's service webhooks; `orgId` is authorized by the operation (webhooks' WEBHOOK_ORG). */
export async function listServiceWebhooks(ctx: PortalContext, orgId: string, owner?: string) {
  const rows = await repo.listOrgServiceWebhooks(ctx.db, orgId, owner || undefined);
  return { webhooks: rows.map((w) => toServiceWebhookRecord(w, w.item_id)) };
}

/** The organization in the path, decided with FEDERATION_OPERATIONS.listServers / registerServer by operation() before the functions below run. */
export const SERVERS_TO_REGISTER = orgTarget({ otherOrg: 'Servers of another organization cannot be managed.' });
export const SERVERS_TO_LIST = orgTarget({ otherOrg: 'Servers of another organization cannot be listed.' });

/** Registers a federated server; `orgId` is authorized by the operation (SERVERS_TO_REGISTER). */
export async function registerServer(ctx: PortalContext, orgId: string, p: { name: string; url: string; adminUrl?: string }) {
  let url: URL;
  try {
    url = new URL(p.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw badParam('url', 'must be an http or https URL');
  }
  const row: repo.ServerRow = {
    id: alnumId(16),
    org_id: orgId,
    name: p.name,
    url: url.toString().replace(/\/$/, ''),
    admin_url: p.adminUrl ?? `${url.toString().replace(/\/$/, '')}/admin`,
    server_role: 'FEDERATED_SERVER',
    created: ctx.clock.now(),
  };
  await repo.insertServer(ctx.db, row);
  return { success: true, ...toServerRecord(row) };
}

/** `orgId` is authorized by the operation (SERVERS_TO_LIST). */
export async function listServers(ctx: PortalContext, orgId: string) {
  return { servers: (await repo.listServers(ctx.db, orgId)).map(toServerRecord) };
}

/**
 * The federated server the path names, as the target of its administration (listing and creating
 * services): an unknown one is 404, one of another organization is refused, and the caller needs
 * what FEDERATION_OPERATIONS declares (portal:admin:manageServers), decided by operation().
 */
export const SERVER_TO_ADMINISTER: Target<repo.ServerRow> = {
  refusals: { otherOrg: 'The server is federated with another organization.' },
  async load({ path, portal }) {
    const server = await repo.findServer(portal.db, path.serverId);
    if (!server) throw serverNotFound(path.serverId);
    return { value: server, orgId: server.org_id };
  },
};

/** The services of `server`, authorized by the operation (SERVER_TO_ADMINISTER). */
export async function listServices(ctx: PortalContext, server: repo.ServerRow) {
  const rows = await repo.listServices(ctx.db, server.id);
  const services: FederatedServiceRecord[] = rows.map((s) => ({
    folderName: s.folder_name,
    serviceName: s.service_name,
    type: s.service_type,
    itemId: s.item_id,
    owner: s.owner,
    webhookCount: s.webhook_count,
  }));
  return { folders: [...new Set(rows.map((s) => s.folder_name).filter(Boolean))], services };
}

/** Registers a service of a federated server (authorized by the operation: SERVER_TO_ADMINISTER), owned by `owner` (default: the caller). */
export async function createService(
  ctx: PortalContext,
  caller: Caller,
  server: repo.ServerRow,
  p: { serviceName: string; type: ServiceType; folderName?: string; itemId?: string; owner?: string },
) {
  const serverId = server.id;
  return ctx.db.tx(async (q) => {
    let ownerId = caller.userId;
    if (p.owner) {
      const id = await repo.memberIdByName(q, caller.orgId, p.owner);
      if (!id) throw badParam('owner', `'${p.owner}' is not a member of this organization`);
      ownerId = id;
    }
    if (p.itemId) {
      if (!(await repo.isItemOfOrg(q, caller.orgId, p.itemId))) throw badParam('itemId', 'names no item of this organization');
    }
    const k = { serverId, folderName: p.folderName ?? '', serviceName: p.serviceName, serviceType: p.type };
    if (await repo.findService(q, k)) throw badParam('serviceName', `a ${p.type} named '${p.serviceName}' already exists in this folder`);
    await repo.insertService(q, {
      server_id: serverId,
      folder_name: k.folderName,
      service_name: p.serviceName,
      service_type: p.type,
      item_id: p.itemId ?? null,
      owner_id: ownerId,
      created: ctx.clock.now(),
    });
    return { success: true };
  });
}
