/** The organization record, as members and as anonymous callers see it. */
import type { Portal } from '../../../shared/contract/portals.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { countMembers } from '../users/repo.ts';
import { canViewMembers, toPortalUser } from '../users/service.ts';
import { defaultOrg, findOrg, type OrgRow } from './repo.ts';

export const CURRENT_VERSION = '2025.1';

function portalRecord(org: OrgRow): Portal {
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
    allSSL: false,
    supportsOAuth: false,
    maxTokenExpirationMinutes: LIMITS.maxTokenExpirationMinutes,
    created: org.created,
    modified: org.modified,
    culture: 'en',
    region: 'WO',
    units: 'metric',
    canSharePublic: true,
    canSearchPublic: true,
    authorizedCrossOriginDomains: [],
    subscriptionInfo: {
      id: org.id,
      type: 'In House',
      state: 'active',
      expDate: 4102444800000,
      maxUsers: 100000,
      userLicenseTypes: { creatorUT: 100000, viewerUT: 100000 },
    },
  };
}

/** `portals/self` (orgId "self") or `portals/<orgId>`. Another organization shows only its public card. */
export async function getPortal(ctx: PortalContext, caller: Caller | null, orgId: string): Promise<Portal> {
  const id = orgId === 'self' ? caller?.orgId : orgId;
  const org = id ? await findOrg(ctx.db, id) : await defaultOrg(ctx.db);
  if (!org) throw notFound(`Organization '${orgId}'`);
  const record = portalRecord(org);
  if (!caller || caller.orgId !== org.id) return record;
  return {
    ...record,
    ...(canViewMembers(caller, org.id) ? { memberCount: await countMembers(ctx.db, org.id) } : {}),
    user: toPortalUser(caller.user, true),
  };
}
