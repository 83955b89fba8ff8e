/** Response shapes the console reads. The user and portal records come from the shared contract. */
import type { PageEnvelope } from '../../shared/contract/wire.ts';

export type { Portal } from '../../shared/contract/portals.ts';
export type { PortalUser, TokenResponse, CreateUserParams } from '../../shared/contract/users.ts';
export type { GroupRecord, MembershipAccess, MemberType, NotAddedReason } from '../../shared/contract/groups.ts';
export type { UserDefaultSettings } from '../../shared/contract/userDefaultSettings.ts';
export type { PageEnvelope };

export type SortOrder = 'asc' | 'desc';

export interface PagingParams {
  /** 1-based. */
  start?: number;
  /** At most 100. */
  num?: number;
}
