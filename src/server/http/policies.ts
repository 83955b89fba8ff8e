/**
 * The privilege rules that are not an operation's declared authority (http/authority.ts), each a
 * named function, and the only place in the service that reads a privilege set.
 *
 * The declaration says who may act on what another member owns and is decided before the handler
 * runs (operation.ts, target.ts). What is left for services is per-object or per-field: what a
 * member must hold to do something to their own (create a group, make it visible to the
 * organization, share an item at a level, schedule a task of a type), and what a member named in a
 * request must hold to be given something (join a group, receive items). Services call these by
 * name; src/server/privilege-checks.test.ts fails when a service reads privileges itself.
 *
 * Privilege ids are the typed `Privilege` union, so a misspelt id does not compile. The 403 details
 * are worded as each area has always worded them.
 */
import { authorityGrants, ownerNeedsOf, type Authority, type AuthorityHolder } from '../../shared/authority.ts';
import { joinPrivilege } from '../../shared/addUsersEligibility.ts';
import { GROUP_OPERATIONS } from '../../shared/contract/groups.ts';
import { CONTENT_OWNER_PRIVILEGE, ITEM_OPERATIONS } from '../../shared/contract/items.ts';
import { accessOwnerMayGive as sharedAccessOwnerMayGive, type ItemAccess } from '../../shared/contract/reassign.ts';
import { GP_TASK_AUTHORITY, REPORT_PRIVILEGES, TASK_TYPE_PRIVILEGES, type ReportType, type TaskType } from '../../shared/contract/tasks.ts';
import { seesOrgMembers } from '../../shared/contract/users.ts';
import type { ServiceType } from '../../shared/contract/webhooks.ts';
import type { Privilege } from '../../shared/privileges.ts';
import { forbidden } from './errors.ts';

/** Whose privileges a rule reads: a caller, or a member named in a request (their role's privileges). */
export interface PrivilegeHolder {
  readonly privileges: ReadonlySet<string>;
}

const holds = (holder: PrivilegeHolder, privilege: Privilege) => holder.privileges.has(privilege);

/** The privileges of `ids` that `holder` lacks, in the order listed. */
export function missingPrivileges(holder: PrivilegeHolder, ids: readonly Privilege[]): Privilege[] {
  return ids.filter((p) => !holds(holder, p));
}

/** Refuse unless the holder has every privilege named; the 403 names the first one missing. */
export function requirePrivilege(holder: PrivilegeHolder, ...ids: Privilege[]): void {
  const [missing] = missingPrivileges(holder, ids);
  if (missing) throw forbidden(`Requires the privilege ${missing}.`);
}

/** A caller as these rules read them: their privileges and organization. */
interface OrgMember extends AuthorityHolder {
  readonly orgId: string;
}

// Another operation's declaration, applied inside this one
//
// Some rules are an operation's declared authority asked by other operations too: every read of an
// item asks who sees it (ITEM_OPERATIONS.item), in code and in the SQL of searches and dependency
// walks; every operation on a group loads it by who sees it. Each is named here once, read from its
// declaration, so the areas that apply it do not read the authority table themselves
// (src/server/authority-in-areas.test.ts) and a changed declaration changes every place at once.

/** Seeing every item of their own organization, whatever its sharing (who sees an item: ITEM_OPERATIONS.item). */
export const seesAllOrgItems = (caller: AuthorityHolder | null): boolean => !!caller && authorityGrants(ITEM_OPERATIONS.item, caller);

/** Seeing every item of organization `orgId` (seesAllOrgItems, for a caller of that organization). */
export const seesAllItemsOf = (caller: OrgMember, orgId: string): boolean => caller.orgId === orgId && seesAllOrgItems(caller);

/** Taking another member's item of organization `orgId` out of a group (ITEM_OPERATIONS.unshareItem), also when sharing into a group. */
export const unsharesOthersItemsOf = (caller: OrgMember, orgId: string): boolean =>
  caller.orgId === orgId && authorityGrants(ITEM_OPERATIONS.unshareItem, caller);

/** Acting on another member's content listing (ITEM_OPERATIONS.userContent): the bulk share path naming a member. */
export const reachesMembersContent = (caller: AuthorityHolder): boolean => authorityGrants(ITEM_OPERATIONS.userContent, caller);

/** Seeing every group of their own organization, whatever its access (who sees a group: GROUP_OPERATIONS.group). */
export const seesAllOrgGroups = (caller: AuthorityHolder): boolean => authorityGrants(GROUP_OPERATIONS.group, caller);

/** Adding members to any group of their organization, not only those they own or manage (GROUP_OPERATIONS.addGroupUsers). */
export const addsToAnyOrgGroup = (caller: AuthorityHolder): boolean => authorityGrants(GROUP_OPERATIONS.addGroupUsers, caller);

// The owner's side of a declaration

/** Whether the owner holds what `authority` asks of owners acting on their own (OwnerNeeds), if anything. */
export function holdsOwnerNeeds(holder: PrivilegeHolder, authority: Authority): boolean {
  const ownerNeeds = ownerNeedsOf(authority);
  return !ownerNeeds || holds(holder, ownerNeeds);
}

/** Refuses the owner lacking what `authority` asks of owners: "Requires the privilege <id>.". */
export function requireOwnerNeeds(holder: PrivilegeHolder, authority: Authority | undefined): void {
  const ownerNeeds = authority && ownerNeedsOf(authority);
  if (ownerNeeds) requirePrivilege(holder, ownerNeeds);
}

// Content

/** Owning content at all: creating items, and keeping the power over one's own (an owner without it is refused, as ArcGIS does). */
export const mayOwnContent = (holder: PrivilegeHolder) => holds(holder, CONTENT_OWNER_PRIVILEGE);

/** Receiving another member's items by reassignment. */
export const mayReceiveItems = (holder: PrivilegeHolder) => holds(holder, 'portal:user:receiveItems');

export type SharingLevel = 'Group' | 'Org' | 'Public';

/** Sharing an item at `level`: the owner needs portal:user:shareTo<level>, an administrator on another's item portal:admin:shareTo<level>. */
export function assertMayShareAt(caller: PrivilegeHolder, ownsItem: boolean, level: SharingLevel): void {
  requirePrivilege(caller, ownsItem ? `portal:user:shareTo${level}` : `portal:admin:shareTo${level}`);
}

/** Sharing other members' items at any level (whoever holds none may not change another's sharing at all). */
export const sharesOthersItems = (caller: PrivilegeHolder) =>
  (['Group', 'Org', 'Public'] as const).some((level) => holds(caller, `portal:admin:shareTo${level}`));

/** The widest of `access` a new owner keeps after a transfer (shared accessOwnerMayGive). */
export const accessOwnerMayGive = (owner: PrivilegeHolder, access: ItemAccess): ItemAccess => sharedAccessOwnerMayGive((p) => holds(owner, p), access);

// Members

/** Seeing the organization's members: members with viewOrgUsers, administrators with viewUsers. */
export const mayViewOrgMembers = (caller: PrivilegeHolder) => seesOrgMembers((p) => holds(caller, p));

/** Seeing other members' private fields (email address among them), and searching by them. */
export const seesMembersPrivateFields = (caller: PrivilegeHolder) => holds(caller, 'portal:admin:viewUsers');

/** Creating members (the default administrator always may). */
export const mayCreateMembers = (caller: PrivilegeHolder) => holds(caller, 'portal:admin:inviteUsers');

// Groups

/** Seeing the organization's groups shared with it (not only one's own and public ones). */
export const seesOrgGroups = (caller: PrivilegeHolder) => holds(caller, 'portal:user:viewOrgGroups');

/** Creating groups. */
export const assertMayCreateGroup = (caller: PrivilegeHolder) => requirePrivilege(caller, 'portal:user:createGroup');

/** Making a group visible to the organization or to everyone; a private one needs nothing. */
export function assertMayShareGroupTo(caller: PrivilegeHolder, access: string | undefined): void {
  if (access === 'org') requirePrivilege(caller, 'portal:user:shareGroupToOrg');
  if (access === 'public') requirePrivilege(caller, 'portal:user:shareGroupToPublic');
}

/** Giving a group shared update (the `updateitemcontrol` capability). */
export const assertMayMakeUpdateCapableGroup = (caller: PrivilegeHolder) => requirePrivilege(caller, 'portal:admin:createUpdateCapableGroup');

/** Making a group its members cannot leave. */
export const assertMayDisallowLeaving = (caller: PrivilegeHolder) => requirePrivilege(caller, 'portal:admin:createLeavingDisallowedGroup');

/** Whether the member may be in a group of their own organization or (`external`) of another. */
export const mayJoinGroups = (member: PrivilegeHolder, external: boolean) => holds(member, joinPrivilege(external));

/** Joining a group oneself; the 403 names the privilege missing. */
export const assertMayJoinGroups = (caller: PrivilegeHolder, external: boolean) => requirePrivilege(caller, joinPrivilege(external));

// Scheduled tasks and webhooks

/**
 * Scheduling a task of `type`: the type's privileges (TASK_TYPE_PRIVILEGES); a geoprocessing task
 * also GP_TASK_AUTHORITY, since it carries an administrator's token to a federated server.
 */
export function assertMayScheduleTaskType(caller: AuthorityHolder, type: TaskType): void {
  requirePrivilege(caller, ...TASK_TYPE_PRIVILEGES[type]);
  if (type === 'GPService' && !authorityGrants(GP_TASK_AUTHORITY, caller)) throw forbidden('Only default administrators can schedule GPService tasks.');
}

/** Scheduling a report: its type's view privileges, or the report task's own when its type is not known yet. */
export const assertMayScheduleReport = (caller: PrivilegeHolder, reportType: ReportType | undefined) =>
  requirePrivilege(caller, ...(reportType ? REPORT_PRIVILEGES[reportType] : TASK_TYPE_PRIVILEGES.ExecuteReport));

/** What a report's owner lacks, now, of what a report of `reportType` lists. */
export const missingReportPrivileges = (owner: PrivilegeHolder, reportType: ReportType) => missingPrivileges(owner, REPORT_PRIVILEGES[reportType]);

/** What creating webhooks on a federated service of each type needs. */
const WEBHOOK_PRIVILEGE: Record<ServiceType, Privilege> = {
  FeatureServer: 'portal:publisher:createFeatureWebhook',
  GPServer: 'portal:admin:createGPWebhook',
};

/** The webhook privilege of a service type, which its owner must hold to manage its webhooks. */
export const serviceWebhookPrivilege = (serviceType: ServiceType): Privilege => WEBHOOK_PRIVILEGE[serviceType];

/** A service's owner manages its webhooks only while holding the webhook privilege of its type. */
export const mayManageServiceWebhooks = (caller: PrivilegeHolder, serviceType: ServiceType) => holds(caller, WEBHOOK_PRIVILEGE[serviceType]);
