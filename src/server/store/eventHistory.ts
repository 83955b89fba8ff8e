/**
 * How an outbox event reads in the organization's history (docs/history.md): its service
 * operation, target type code and documented action, derived from the event's source and
 * webhook operation unless the writer names them.
 */
import type { HistoryAction, HistoryIdType, HistoryOperation } from '../../shared/contract/history.ts';
import type { EventSource } from '../../shared/events.ts';

/** Outbox sources: the webhook catalogue's, and the ones only history reads. */
export type OutboxSource = EventSource | 'organization' | 'webhook' | 'task' | 'collaboration' | 'session' | 'relationship';

const SOURCE_ID_TYPE: Record<OutboxSource, HistoryIdType> = {
  item: 'i',
  group: 'g',
  user: 'u',
  role: 'r',
  organization: 'a',
  webhook: 'w',
  task: 't',
  collaboration: 'c',
  session: 'u',
  relationship: 'i',
};

/** (source, webhook operation) → service operation, where the writer does not name one. */
const DEFAULT_OPS: Partial<Record<OutboxSource, Record<string, HistoryOperation>>> = {
  item: {
    add: 'addItem',
    update: 'updateItem',
    delete: 'deleteItem',
    share: 'shareItem',
    unshare: 'unshareItem',
    move: 'moveItem',
    reassign: 'reassignItem',
    protect: 'protectItem',
    unprotect: 'unprotectItem',
    publish: 'updateItem',
  },
  group: {
    add: 'createGroup',
    update: 'updateGroup',
    delete: 'deleteGroup',
    protect: 'protectGroup',
    unprotect: 'unprotectGroup',
    addUsers: 'addUsers',
    removeUsers: 'removeUsers',
    updateUsers: 'updateUsers',
    share: 'shareItem',
    unshare: 'unshareItem',
    reassign: 'reassignGroup',
  },
  user: {
    add: 'createUser',
    update: 'updateUser',
    delete: 'deleteUser',
    updateUserRole: 'updateUserRole',
    updateUserLicenseType: 'updateUserLicenseType',
    disable: 'disableUser',
    enable: 'enableUser',
  },
  role: { add: 'createRole', update: 'updateRole', delete: 'deleteRole' },
};

/** Service operation → documented action. */
const OP_ACTION: Record<HistoryOperation, HistoryAction> = {
  addItem: 'add',
  updateItem: 'update',
  deleteItem: 'delete',
  restoreItem: 'update',
  shareItem: 'share',
  unshareItem: 'unshare',
  moveItem: 'update',
  reassignItem: 'update',
  setContentStatus: 'update',
  addRelationship: 'update',
  deleteRelationship: 'update',
  protectItem: 'update',
  unprotectItem: 'update',
  registerApp: 'update',
  updateApp: 'update',
  createGroup: 'create',
  updateGroup: 'update',
  deleteGroup: 'delete',
  protectGroup: 'update',
  unprotectGroup: 'update',
  reassignGroup: 'update',
  addUsers: 'addusers',
  removeUsers: 'removeusers',
  updateUsers: 'updateUsers',
  joinGroup: 'addusers',
  leaveGroup: 'removeusers',
  createUser: 'create',
  updateUser: 'update',
  deleteUser: 'delete',
  updateUserRole: 'update',
  updateUserLicenseType: 'update',
  disableUser: 'update',
  enableUser: 'update',
  signin: 'login',
  failedSignin: 'failedlogin',
  createRole: 'create',
  updateRole: 'update',
  setPrivileges: 'update',
  deleteRole: 'delete',
  updateOrganization: 'update',
  setUserDefaultSettings: 'update',
  runMemberJob: 'update',
  createWebhook: 'create',
  updateWebhook: 'update',
  deleteWebhook: 'delete',
  activateWebhook: 'update',
  deactivateWebhook: 'update',
  updateWebhookSettings: 'update',
  createServiceWebhook: 'create',
  updateServiceWebhook: 'update',
  deleteServiceWebhook: 'delete',
  createTask: 'create',
  updateTask: 'update',
  deleteTask: 'delete',
  enableTask: 'update',
  disableTask: 'update',
  createCollaboration: 'create',
  updateCollaboration: 'update',
  deleteCollaboration: 'delete',
  inviteParticipant: 'create',
  acceptInvitation: 'update',
  declineInvitation: 'update',
  addWorkspace: 'create',
  updateWorkspace: 'update',
  deleteWorkspace: 'delete',
  removeParticipant: 'delete',
};

/** Collaboration operations about a workspace or a participant carry their own codes. */
const OP_ID_TYPE: Partial<Record<HistoryOperation, HistoryIdType>> = {
  inviteParticipant: 'cp',
  acceptInvitation: 'cp',
  declineInvitation: 'cp',
  removeParticipant: 'cp',
  addWorkspace: 'cw',
  updateWorkspace: 'cw',
  deleteWorkspace: 'cw',
};

export interface HistoryView {
  op: string;
  idType: HistoryIdType;
  action: HistoryAction;
}

export function historyView(source: OutboxSource, operation: string, op?: HistoryOperation): HistoryView {
  const resolved = op ?? DEFAULT_OPS[source]?.[operation] ?? (operation as HistoryOperation);
  return { op: resolved, idType: OP_ID_TYPE[resolved] ?? SOURCE_ID_TYPE[source], action: OP_ACTION[resolved] ?? 'update' };
}
