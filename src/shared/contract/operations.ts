/**
 * Every operation whose authority is declared beside its contract, by name: the service's routes
 * declare theirs from these entries, and the console's can(user, operation) reads the same ones,
 * so neither half states a rule the other does not.
 */
import type { Authority } from '../authority.ts';
import { COLLABORATION_OPERATIONS } from './collaborations.ts';
import { PORTAL_OPERATIONS } from './portals.ts';
import { ROLE_OPERATIONS } from './roles.ts';
import { USER_DEFAULTS_OPERATIONS } from './userDefaultSettings.ts';
import { MEMBER_OPERATIONS } from './users.ts';
import { WEBHOOK_OPERATIONS } from './webhooks.ts';

/** The tables by area; an operation's name is unique across them (operations.test.ts). */
export const OPERATION_TABLES = {
  collaborations: COLLABORATION_OPERATIONS,
  members: MEMBER_OPERATIONS,
  portals: PORTAL_OPERATIONS,
  roles: ROLE_OPERATIONS,
  userDefaultSettings: USER_DEFAULTS_OPERATIONS,
  webhooks: WEBHOOK_OPERATIONS,
} as const;

export const OPERATIONS = {
  ...COLLABORATION_OPERATIONS,
  ...MEMBER_OPERATIONS,
  ...PORTAL_OPERATIONS,
  ...ROLE_OPERATIONS,
  ...USER_DEFAULTS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
} as const satisfies Record<string, Authority>;

export type OperationName = keyof typeof OPERATIONS;
