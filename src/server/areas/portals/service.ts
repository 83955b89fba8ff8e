/** The organization record, as members and as anonymous callers see it. */
import type { Portal, PortalSettings } from '../../../shared/contract/portals.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import type { Queryable } from '../../store/db.ts';
import type { z } from 'zod';
import type { updatePortalParams } from '../../../shared/contract/portals.ts';
import { notFound } from '../../http/errors.ts';
import { orgTarget } from '../../http/target.ts';
import { httpsOnly } from '../../http/tls.ts';
import type { Config } from '../../config.ts';
import { applyOrgVerification } from '../items/service.ts';
import { canViewMembers, countMembers, toPortalUser } from '../users/service.ts';
import { recordEvent } from '../../store/events.ts';
import { allowedOriginsOf, storedAllowedOrigins } from './allowedOrigins.ts';
import { basemapGalleryOf, storedBasemapGallery } from './basemapGallery.ts';
import { defaultOrg, findOrg, type OrgRow, updateOrg } from './repo.ts';
import { DEFAULT_EXTENT, helperServicesOf } from './helperServices.ts';

/** What other areas read of an organization, exposed here so they depend on this service and not on the SQL module. */
export { findOrg } from './repo.ts';
/** The first start's seeding (seed/bootstrap.ts). */
export { countOrgs, insertOrg, lockFirstStartSeeding } from './repo.ts';

export const CURRENT_VERSION = '2025.1';

/** How many members from other organizations one group may hold: the organization's setting, else the default. */
export async function externalMemberLimit(q: Queryable, orgId: string): Promise<number> {
  const org = await findOrg(q, orgId);
  const value = org?.settings?.maxExternalMembersPerGroup;
  return typeof value === 'number' && value >= 0 ? value : LIMITS.defaultExternalMembersPerGroup;
}

function portalRecord(org: OrgRow, config: Pick<Config, 'tls' | 'publicUrl'>, origin: string): Portal {
  return {
    id: org.id,
    name: org.name,
    description: org.description,
    urlKey: org.url_key,
    portalName: 'Local Portal',
    portalMode: 'multitenant',
    isPortal: true,
    currentVersion: CURRENT_VERSION,
    access: org.access,
    isVerified: org.is_verified,
    allSSL: httpsOnly(config),
    // oauth2/authorize, token, registerApp… (docs/oauth.md).
    supportsOAuth: true,
    maxTokenExpirationMinutes: LIMITS.maxTokenExpirationMinutes,
    created: org.created,
    modified: org.modified,
    culture: 'en',
    region: 'WO',
    units: 'metric',
    canSharePublic: true,
    canSearchPublic: true,
    // Deleted items wait 14 days in the recycle bin (areas/recycleBin), as in ArcGIS Online.
    recycleBinSupported: true,
    recycleBinEnabled: true,
    authorizedCrossOriginDomains: [],
    allowedOrigins: storedAllowedOrigins(org),
    ...basemapGalleryOf(org),
    defaultExtent: DEFAULT_EXTENT,
    helperServices: helperServicesOf(origin),
    subscriptionInfo: {
      id: org.id,
      type: 'In House',
      state: 'active',
      expDate: 4102444800000,
      maxUsers: 100000,
      userLicenseTypes: { creatorUT: 100000, viewerUT: 100000 },
    },
    // A local extra itself (gone with LOCAL_EXTRAS=off, absent on other portals): tells the console
    // it may offer this portal's local-only operations (docs/local-extras.md).
    localExtras: true,
  };
}

/**
 * `portals/self` (orgId "self") or `portals/<orgId>`. Another organization shows only its public
 * card. `origin`: where this portal was reached (helper service URLs point back at it).
 */
export async function getPortal(ctx: PortalContext, caller: Caller | null, orgId: string, origin: string): Promise<Portal> {
  const org = await orgOfPath(ctx, caller, orgId);
  const record = portalRecord(org, ctx.config, origin);
  if (!caller || caller.orgId !== org.id) return record;
  return {
    ...record,
    ...(canViewMembers(caller, org.id) ? { memberCount: await countMembers(ctx.db, org.id) } : {}),
    maxExternalMembersPerGroup: await externalMemberLimit(ctx.db, org.id),
    user: toPortalUser(caller.user, true),
  };
}

/** The organization a `portals/<orgId>` path names: the caller's for "self" (the primary one for anonymous callers). */
async function orgOfPath(ctx: PortalContext, caller: Caller | null, orgId: string): Promise<OrgRow> {
  const id = orgId === 'self' ? caller?.orgId : orgId;
  const org = id ? await findOrg(ctx.db, id) : await defaultOrg(ctx.db);
  if (!org) throw notFound(`Organization '${orgId}'`);
  return org;
}

/**
 * `portals/<orgId>/settings`: the documented Organization Settings this portal has, for anyone (the
 * resource is "the configuration as seen by the current users, either anonymous or logged in").
 */
export async function getPortalSettings(ctx: PortalContext, caller: Caller | null, orgId: string, origin: string): Promise<PortalSettings> {
  const org = await orgOfPath(ctx, caller, orgId);
  const record = portalRecord(org, ctx.config, origin);
  return { allowedRedirectUris: [], helperServices: record.helperServices, culture: record.culture };
}

/**
 * `portals/self/subscriptionInfo` (Subscription Info, rest-js getSubscriptionInfo): the
 * subscription of the caller's own organization, as portals/self carries it. Another organization's
 * answers as one that does not exist.
 */
export async function getSubscriptionInfo(ctx: PortalContext, caller: Caller, orgId: string): Promise<Portal['subscriptionInfo']> {
  const org = await orgOfPath(ctx, caller, orgId);
  if (org.id !== caller.orgId) throw notFound(`Organization '${orgId}'`);
  return portalRecord(org, ctx.config, '').subscriptionInfo;
}

/** The settings an update changes, before and after. */
function orgChange(org: OrgRow, params: z.output<typeof updatePortalParams>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {
    name: org.name,
    description: org.description,
    access: org.access,
    isVerified: org.is_verified,
    maxExternalMembersPerGroup: org.settings?.maxExternalMembersPerGroup ?? null,
    allowedOrigins: storedAllowedOrigins(org),
    ...storedBasemapGallery(org),
  };
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || !(k in was) || JSON.stringify(was[k]) === JSON.stringify(v)) continue;
    before[k] = was[k];
    after[k] = v;
  }
  return { before, after };
}

/**
 * What organization settings' changes act on (PORTAL_OPERATIONS.updatePortal: members holding
 * manageWebsite; default administrators hold every privilege): the organization in the path
 * (`self` is the caller's own), decided by operation() before updatePortal runs.
 */
export const SETTINGS_ORG = orgTarget({ otherOrg: 'You can change only your own organization.' }, { self: true });

/** Organization settings; `orgId` is authorized by the operation (PORTAL_OPERATIONS.updatePortal on SETTINGS_ORG). */
export async function updatePortal(ctx: PortalContext, caller: Caller, orgId: string, params: z.output<typeof updatePortalParams>) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const org = await findOrg(q, orgId);
    if (!org) throw notFound(`Organization '${orgId}'`);
    const settings = { ...org.settings };
    if (params.maxExternalMembersPerGroup !== undefined) settings.maxExternalMembersPerGroup = params.maxExternalMembersPerGroup;
    if (params.allowedOrigins !== undefined) settings.allowedOrigins = params.allowedOrigins;
    // Empty text clears a gallery query: portals/self then answers one no group matches.
    if (params.basemapGalleryGroupQuery !== undefined) settings.basemapGalleryGroupQuery = params.basemapGalleryGroupQuery;
    if (params.vectorBasemapGalleryGroupQuery !== undefined) settings.vectorBasemapGalleryGroupQuery = params.vectorBasemapGalleryGroupQuery;
    if (params.useVectorBasemaps !== undefined) settings.useVectorBasemaps = params.useVectorBasemaps;
    await updateOrg(
      q,
      {
        id: orgId,
        name: params.name ?? org.name,
        description: params.description ?? org.description,
        access: params.access ?? org.access,
        settings,
        is_verified: params.isVerified ?? org.is_verified,
      },
      now,
    );
    // public_authoritative needs a public, verified organization: items follow when that changes.
    const before = org.is_verified && org.access === 'public';
    const after = (params.isVerified ?? org.is_verified) && (params.access ?? org.access) === 'public';
    if (before !== after) await applyOrgVerification(q, orgId, after, caller, now);
    await recordEvent(q, {
      orgId,
      source: 'organization',
      operation: 'update',
      subjectId: orgId,
      actor: actorOf(caller),
      when: now,
      history: { op: 'updateOrganization', title: params.name ?? org.name, data: orgChange(org, params) },
    });
  });
  // CORS answers of this process follow at once; other processes within the list's few seconds.
  if (params.allowedOrigins !== undefined) allowedOriginsOf(ctx).forget();
  return { success: true as const };
}
