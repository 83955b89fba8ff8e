/**
 * Every operation whose authority is declared beside its contract, by name: the service's routes
 * declare theirs from these entries, and the console's can(user, operation) reads the same ones,
 * so neither half states a rule the other does not.
 */
import type { Authority } from '../authority.ts';
import { COLLABORATION_OPERATIONS } from './collaborations.ts';
import { DEPENDENCY_OPERATIONS } from './dependencies.ts';
import { FEDERATION_OPERATIONS } from './federation.ts';
import { FOLDER_OPERATIONS } from './folders.ts';
import { GROUP_CONTENT_OPERATIONS } from './groupContent.ts';
import { GROUP_OPERATIONS } from './groups.ts';
import { HISTORY_READ_OPERATIONS } from './history.ts';
import { ITEM_OPERATIONS } from './items.ts';
import { MEMBER_JOB_OPERATIONS } from './memberJobs.ts';
import { MEMBER_LIFECYCLE_OPERATIONS } from './memberLifecycle.ts';
import { OAUTH_OPERATIONS } from './oauth.ts';
import { PORTAL_OPERATIONS } from './portals.ts';
import { REASSIGN_OPERATIONS } from './reassign.ts';
import { RECYCLE_BIN_OPERATIONS } from './recycleBin.ts';
import { RELATIONSHIP_OPERATIONS } from './relationships.ts';
import { RESOURCE_OPERATIONS } from './resources.ts';
import { ROLE_OPERATIONS } from './roles.ts';
import { SESSION_OPERATIONS } from './session.ts';
import { TASK_OPERATIONS } from './tasks.ts';
import { USER_DEFAULTS_OPERATIONS } from './userDefaultSettings.ts';
import { MEMBER_OPERATIONS } from './users.ts';
import { WEBHOOK_OPERATIONS } from './webhooks.ts';

/** The tables by area; an operation's name is unique across them (operation-table.test.ts). */
export const OPERATION_TABLES = {
  collaborations: COLLABORATION_OPERATIONS,
  dependencies: DEPENDENCY_OPERATIONS,
  federation: FEDERATION_OPERATIONS,
  folders: FOLDER_OPERATIONS,
  groupContent: GROUP_CONTENT_OPERATIONS,
  groups: GROUP_OPERATIONS,
  history: HISTORY_READ_OPERATIONS,
  items: ITEM_OPERATIONS,
  members: MEMBER_OPERATIONS,
  memberJobs: MEMBER_JOB_OPERATIONS,
  memberLifecycle: MEMBER_LIFECYCLE_OPERATIONS,
  oauth: OAUTH_OPERATIONS,
  portals: PORTAL_OPERATIONS,
  reassign: REASSIGN_OPERATIONS,
  recycleBin: RECYCLE_BIN_OPERATIONS,
  relationships: RELATIONSHIP_OPERATIONS,
  resources: RESOURCE_OPERATIONS,
  roles: ROLE_OPERATIONS,
  session: SESSION_OPERATIONS,
  tasks: TASK_OPERATIONS,
  userDefaultSettings: USER_DEFAULTS_OPERATIONS,
  webhooks: WEBHOOK_OPERATIONS,
} as const;

export const OPERATIONS = {
  ...COLLABORATION_OPERATIONS,
  ...DEPENDENCY_OPERATIONS,
  ...FEDERATION_OPERATIONS,
  ...FOLDER_OPERATIONS,
  ...GROUP_CONTENT_OPERATIONS,
  ...GROUP_OPERATIONS,
  ...HISTORY_READ_OPERATIONS,
  ...ITEM_OPERATIONS,
  ...MEMBER_OPERATIONS,
  ...MEMBER_JOB_OPERATIONS,
  ...MEMBER_LIFECYCLE_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...RECYCLE_BIN_OPERATIONS,
  ...PORTAL_OPERATIONS,
  ...REASSIGN_OPERATIONS,
  ...RELATIONSHIP_OPERATIONS,
  ...RESOURCE_OPERATIONS,
  ...ROLE_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...TASK_OPERATIONS,
  ...USER_DEFAULTS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
} as const satisfies Record<string, Authority>;

export type OperationName = keyof typeof OPERATIONS;
