/** The organization record (`portals/self`, `portals/<orgId>`), facts §2.2. */
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
  subscriptionInfo: {
    id: string;
    type: string;
    state: 'active';
    expDate: number;
    maxUsers: number;
    userLicenseTypes: Record<string, number>;
  };
  /** Local-portal extra: number of members, for the overview. */
  memberCount?: number;
  user?: PortalUser;
}
