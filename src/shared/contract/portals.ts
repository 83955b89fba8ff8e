/** The organization record (`portals/self`, `portals/<orgId>`), facts §2.2. */
import { z } from 'zod';
import { member, own, privileges, type Authority } from '../authority.ts';
import { allowedOriginsParam } from './allowedOrigins.ts';
import { wireBool, wireInt } from './wire.ts';
import type { PortalUser } from './users.ts';

export interface Portal {
  id: string;
  name: string;
  description: string;
  urlKey: string;
  portalName: string;
  portalMode: 'multitenant' | 'singletenant';
  isPortal: boolean;
  currentVersion: string;
  access: 'public' | 'private';
  isVerified: boolean;
  allSSL: boolean;
  supportsOAuth: boolean;
  maxTokenExpirationMinutes: number;
  created: number;
  modified: number;
  culture: string;
  region: string;
  units: string;
  canSharePublic: boolean;
  canSearchPublic: boolean;
  /** ArcGIS Online's recycle bin (absent on ArcGIS Enterprise): deletes wait 14 days, restorable. */
  recycleBinSupported?: boolean;
  recycleBinEnabled?: boolean;
  authorizedCrossOriginDomains: string[];
  /** Origins that may call with credentials (CORS); empty: every origin (allowedOrigins.ts). */
  allowedOrigins: string[];
  /**
   * The group searches (`community/groups?q=`) whose first group holds the basemap gallery's Web
   * Maps, as the Maps SDK's `Portal.fetchBasemaps()` reads them; unset, a query no group matches.
   */
  basemapGalleryGroupQuery: string;
  vectorBasemapGalleryGroupQuery: string;
  /** Which of the two the gallery uses. */
  useVectorBasemaps: boolean;
  /** The gallery the SDK uses instead when the app has a basemap-styles API key: the one in use here. */
  devBasemapGalleryGroupQuery: string;
  /** The organization's default map extent (the world in Web Mercator). */
  defaultExtent: {
    type: 'extent';
    xmin: number;
    ymin: number;
    xmax: number;
    ymax: number;
    spatialReference: { wkid: number; latestWkid: number };
  };
  /** Helper services: only `geometry`, a URL on this portal (areas/portals/helperServices.ts). */
  helperServices: { geometry: { url: string } };
  subscriptionInfo: {
    id: string;
    type: string;
    state: 'active';
    expDate: number;
    maxUsers: number;
    userLicenseTypes: Record<string, number>;
  };
  /** Local-portal extras: number of members (for the overview) and organization settings. */
  memberCount?: number;
  maxExternalMembersPerGroup?: number;
  /** Local-portal marker: this portal offers its local extras and local-only operations (docs/local-extras.md). */
  localExtras?: true;
  user?: PortalUser;
}

/** The longest basemap gallery group query kept (a group search's `q` may be longer; a gallery query is one group's). */
export const MAX_GALLERY_QUERY_CHARS = 1024;

const galleryGroupQuery = z.string().trim().max(MAX_GALLERY_QUERY_CHARS, `must be at most ${MAX_GALLERY_QUERY_CHARS} characters`);

/** One entry of `portals/regions` (a bare array): the English name, the code, the name in the asked culture. */
export interface PortalRegion {
  name: string;
  region: string;
  localizedName: string;
}

/** One entry of `portals/languages` (a bare array): the English name, the culture code, the language's own name. */
export interface PortalLanguage {
  language: string;
  culture: string;
  localizedName: string;
}

/** `portals/regions?culture=`: the culture the localized names are in (unknown or malformed: English). */
export const portalRegionsParams = z.object({ culture: z.string().max(35).optional() });

/**
 * `portals/<orgId>/settings` (Organization Settings): the fields of the documented resource this
 * portal has. No helper services and no other portal instances to redirect to (both empty), no
 * informational banner or access notice (left out).
 */
export interface PortalSettings {
  allowedRedirectUris: string[];
  /** The same as portals/self's: only the geometry helper on this portal. */
  helperServices: Portal['helperServices'];
  culture: string;
}

/**
 * `portals/<orgId>/update`: the organization settings this portal keeps. `maxExternalMembersPerGroup`
 * is a local setting (members from other organizations one group may hold).
 */
export const updatePortalParams = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(250).optional(),
  description: z
    .string()
    .max(64 * 1024 - 1)
    .optional(),
  access: z.enum(['private', 'public']).optional(),
  maxExternalMembersPerGroup: wireInt(0, 100_000).optional(),
  /** Comma-separated origins (or a JSON array); empty text clears the list (every origin allowed). */
  allowedOrigins: allowedOriginsParam.optional(),
  /** The basemap gallery group queries (a group search `q`); empty text clears one (no gallery). */
  basemapGalleryGroupQuery: galleryGroupQuery.optional(),
  vectorBasemapGalleryGroupQuery: galleryGroupQuery.optional(),
  useVectorBasemaps: wireBool.optional(),
  /** Local operation: marks the organization verified (public_authoritative needs a public, verified organization). */
  isVerified: wireBool.optional(),
});

/**
 * Who may call each organization operation (`portals/…`): the catalogues are anyone's, the record
 * and its settings any member's, and changing them needs manageWebsite. The service declares its
 * routes with these entries; the console asks the same ones (lib/can.ts).
 */
export const PORTAL_OPERATIONS = {
  regions: own(),
  languages: own(),
  portalSettings: member(),
  portal: member(),
  updatePortal: privileges('portal:admin:manageWebsite'),
  /** `portals/self/subscriptionInfo` (also spelled `subscriptioninfo`): the caller's own organization. */
  subscriptionInfo: member(),
  /** The geometry helper `helperServices.geometry.url` names (areas/portals/helperServices.ts): the same answer for anyone. */
  geometryServer: own(),
} as const satisfies Record<string, Authority>;
