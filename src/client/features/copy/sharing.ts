/**
 * The documented operations that carry an item's relationships and sharing to the target: Related
 * Items and Add Relationship, Item Groups, group search, Create Group, Share Item (as item owner),
 * and community/self for what the target member may share to. Like portal.ts, each takes the
 * connection it acts on.
 */
import { RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';
import { request, type Item, type Params } from '../../api/index.ts';
import type { PortalConnection } from './portal.ts';

const seg = encodeURIComponent;

function call<T>(c: PortalConnection, path: string, params: Params = {}, method: 'GET' | 'POST' = 'GET'): Promise<T> {
  return request<T>(path, params, { portalUrl: c.portalUrl, token: c.token, method });
}

export interface Relationship {
  type: string;
  destinationId: string;
}

/** Relationship types an item of `itemType` can be the origin of. */
export function originTypesFor(itemType: string): string[] {
  const lower = itemType.toLowerCase();
  return RELATIONSHIP_TYPES.filter((r) => r.origin.includes('*') || r.origin.some((o) => o.toLowerCase() === lower)).map((r) => r.name);
}

type Related = { relatedItems?: (Item & { relationshipTypes?: string[] })[] };

/**
 * The relationships an item is the origin of. One request names every type the item could be the
 * origin of; ArcGIS answers the related items without saying by which type, so when any are found
 * and the answer does not say (this portal's `relationshipTypes` on each item is an extra), each
 * type is asked on its own.
 */
export async function forwardRelationships(c: PortalConnection, item: Pick<Item, 'id' | 'type'>): Promise<Relationship[]> {
  const types = originTypesFor(item.type);
  if (!types.length) return [];
  const path = `content/items/${seg(item.id)}/relatedItems`;
  const all = (await call<Related>(c, path, { relationshipTypes: types, direction: 'forward', num: 100 })).relatedItems ?? [];
  if (!all.length) return [];
  if (all.every((r) => Array.isArray(r.relationshipTypes)))
    return all.flatMap((r) => r.relationshipTypes!.map((type) => ({ type, destinationId: r.id.toLowerCase() })));
  const out: Relationship[] = [];
  for (const type of types) {
    // `relationshipTypes` is the documented name, with one type here (`relationshipType` is rest-js's option, not a parameter).
    const page = await call<Related>(c, path, { relationshipTypes: type, direction: 'forward', num: 100 });
    for (const r of page.relatedItems ?? []) out.push({ type, destinationId: r.id.toLowerCase() });
  }
  return out;
}

/** Add Relationship: `relationshipTypes` is the documented name (rest-js sends `relationshipType`). */
export async function addRelationshipIn(c: PortalConnection, originItemId: string, destinationItemId: string, type: string): Promise<void> {
  await call(c, `content/users/${seg(c.username)}/addRelationship`, { originItemId, destinationItemId, relationshipTypes: type }, 'POST');
}

export interface GroupSummary {
  id: string;
  title: string;
  access: 'private' | 'org' | 'public';
  tags?: string[];
  snippet?: string | null;
  owner?: string;
  isViewOnly?: boolean;
  /** The caller's membership, where the portal's group answer carries it. */
  userMembership?: { memberType?: 'owner' | 'admin' | 'member' | 'none' };
}

/** The groups an item is shared with, as the caller sees them (Item Groups). */
export async function groupsOfItem(c: PortalConnection, id: string): Promise<GroupSummary[]> {
  const answer = await call<{ admin?: GroupSummary[]; member?: GroupSummary[]; other?: GroupSummary[] }>(c, `content/items/${seg(id)}/groups`, {}, 'POST');
  return [...(answer.admin ?? []), ...(answer.member ?? []), ...(answer.other ?? [])];
}

/** The tag that ties a copied group to its source group. */
export const sourceGroupTag = (sourceGroupId: string) => `source-${sourceGroupId.toLowerCase()}`;

/** The target organization's group tagged `source-<id>`, if one is there. */
export async function findGroupCopy(target: PortalConnection, sourceGroupId: string): Promise<GroupSummary | undefined> {
  const tag = sourceGroupTag(sourceGroupId);
  const found = await call<{ results: GroupSummary[] }>(target, 'community/groups', { q: `tags:"${tag}" AND orgid:${target.orgId}`, num: 100 });
  return found.results.find((g) => g.tags?.some((t) => t.toLowerCase() === tag));
}

export async function createGroupIn(target: PortalConnection, source: GroupSummary, access: GroupSummary['access']): Promise<string> {
  const answer = await call<{ group: { id: string } }>(
    target,
    'community/createGroup',
    {
      title: source.title,
      access,
      tags: [...(source.tags ?? []).filter((t) => !/^source-/i.test(t)), sourceGroupTag(source.id)],
      snippet: source.snippet ?? '',
    },
    'POST',
  );
  return answer.group.id;
}

export async function deleteGroupIn(target: PortalConnection, id: string): Promise<void> {
  await call(target, `community/groups/${seg(id)}/delete`, {}, 'POST');
}

/** Share Item (as item owner): adds sharing, never takes any away. The groups it could not share to. */
export async function shareIn(
  c: PortalConnection,
  owner: string,
  id: string,
  to: { everyone: boolean; org: boolean; groups: readonly string[] },
): Promise<string[]> {
  const answer = await call<{ notSharedWith?: string[] }>(
    c,
    `content/users/${seg(owner)}/items/${seg(id)}/share`,
    { everyone: to.everyone, org: to.org, groups: to.groups.length ? [...to.groups] : ' ' },
    'POST',
  );
  return answer.notSharedWith ?? [];
}

export interface SharingRights {
  org: boolean;
  public: boolean;
}

type MemberType = NonNullable<GroupSummary['userMembership']>['memberType'];

/** What the target member may share to a group with: membership, or an administrator's privilege. */
export interface GroupRights {
  /** portal:admin:shareToGroup: may share to any group of the organization, member or not. */
  anyGroup: boolean;
  /** The member's groups (community/self `groups`): group id → member type. */
  memberOf: Record<string, MemberType>;
}

/** What the target member may share to: their privileges and groups, and whether the portal allows public sharing at all. */
export async function sharingRights(target: PortalConnection): Promise<SharingRights & GroupRights> {
  const [self, portal] = await Promise.all([
    call<{ privileges?: string[]; groups?: (GroupSummary & { id: string })[] }>(target, 'community/self'),
    call<{ canSharePublic?: boolean }>(target, 'portals/self').catch((): { canSharePublic?: boolean } => ({})),
  ]);
  const has = (p: string) => self.privileges?.includes(`portal:user:${p}`) || self.privileges?.includes(`portal:admin:${p}`);
  const memberOf: GroupRights['memberOf'] = {};
  for (const g of self.groups ?? []) memberOf[g.id.toLowerCase()] = g.userMembership?.memberType ?? 'member';
  return {
    org: !!has('shareToOrg'),
    public: !!has('shareToPublic') && portal.canSharePublic !== false,
    anyGroup: !!self.privileges?.includes('portal:admin:shareToGroup'),
    memberOf,
  };
}

/**
 * Why the target member cannot share to `group` of their organization (Share Item: a member of the
 * group, a view-only group's owner or managers, or an administrator with portal:admin:shareToGroup),
 * or undefined when they can.
 */
export function whyNotShareableTo(group: GroupSummary, rights: GroupRights): string | undefined {
  if (rights.anyGroup) return undefined;
  const type = rights.memberOf[group.id.toLowerCase()] ?? group.userMembership?.memberType ?? 'none';
  if (group.isViewOnly && type !== 'owner' && type !== 'admin')
    return `Group ${group.title} in the target is view-only and you do not manage it — the copies will not be shared to it.`;
  if (type === 'none') return `You are not a member of group ${group.title} in the target — the copies will not be shared to it.`;
  return undefined;
}
