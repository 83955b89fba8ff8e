/** The organization record (`portals/self`, `portals/<orgId>`), facts §2.2. */
import { z } from 'zod';
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
  authorizedCrossOriginDomains: string[];
  /** Origins that may call with credentials (CORS); empty: every origin (allowedOrigins.ts). */
  allowedOrigins: string[];
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
  /** Local operation: marks the organization verified (public_authoritative needs a public, verified organization). */
  isVerified: wireBool.optional(),
});
