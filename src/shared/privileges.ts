/**
 * The privilege catalogue: every identifier a role may hold (facts file §5), with the area and
 * general/administrative grouping the ArcGIS role editor uses. One catalogue feeds the service's
 * validation of `setPrivileges` and the console's checklist.
 */

export const PRIVILEGE_AREAS = [
  'members',
  'groups',
  'content',
  'sharing',
  'premium content',
  'features',
  'version management',
  'webhooks',
  'marketplace',
  'organization settings',
  'open data',
] as const;
export type PrivilegeArea = (typeof PRIVILEGE_AREAS)[number];
export type PrivilegeKind = 'general' | 'administrative';
export type Deployment = 'both' | 'hosted' | 'self-hosted';

export interface PrivilegeDef<Id extends string = Privilege> {
  id: Id;
  area: PrivilegeArea;
  kind: PrivilegeKind;
  label: string;
  deployment: Deployment;
  /** Privileges granted along with this one (the role editor ticks them too). */
  implies?: Id[];
  /** Privileges that must be held for this one to have effect. */
  requires?: Id[];
}

type Row<Id extends string> = [id: Id, label: string, deployment?: Deployment, extra?: Pick<PrivilegeDef<Id>, 'implies' | 'requires'>];

// Generic in the ids so the catalogue below keeps them as string literals: `Privilege` is their union.
function section<Id extends string>(area: PrivilegeArea, kind: PrivilegeKind, rows: Row<Id>[]): PrivilegeDef<Id>[] {
  return rows.map(([id, label, deployment = 'both', extra]) => ({ id, area, kind, label, deployment, ...extra }));
}

const NA = { requires: ['premium:user:networkanalysis' as const] };

const CATALOGUE = [
  ...section('members', 'general', [['portal:user:viewOrgUsers', 'View members of the organization']]),
  ...section('groups', 'general', [
    ['portal:user:createGroup', 'Create groups'],
    ['portal:user:joinGroup', 'Join groups in the organization'],
    ['portal:user:joinNonOrgGroup', 'Join groups outside the organization'],
    ['portal:user:viewOrgGroups', 'View groups of the organization'],
    ['portal:user:invitePartneredCollaborationMembers', 'Invite partnered collaboration members', 'hosted'],
    ['portal:user:addExternalMembersToGroup', 'Add members from other organizations to groups', 'hosted'],
  ]),
  ...section('content', 'general', [
    ['portal:user:createItem', 'Create, update and delete own content'],
    ['portal:publisher:publishFeatures', 'Publish hosted feature layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishTiles', 'Publish hosted tile layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishScenes', 'Publish hosted scene layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishTiledImagery', 'Publish hosted tiled imagery layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishDynamicImagery', 'Publish hosted dynamic imagery layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishFeeds', 'Create feeds', 'hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishRealTimeAnalytics', 'Create real-time analytics', 'hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishBigDataAnalytics', 'Create big data analytics', 'hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishKnowledgeGraph', 'Create knowledge graphs', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishVideo', 'Publish video layers', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishLivestreamVideo', 'Publish live-stream video', 'self-hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:publishServerServices', 'Publish server-based layers', 'self-hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:registerDataStores', 'Register data stores', 'self-hosted', { requires: ['portal:user:createItem'] }],
    ['portal:publisher:bulkPublishFromDataStores', 'Bulk publish from data stores', 'self-hosted', { requires: ['portal:publisher:registerDataStores'] }],
    ['portal:publisher:createDataPipelines', 'Create data pipelines', 'hosted', { requires: ['portal:user:createItem'] }],
    ['portal:user:viewOrgItems', 'View content of the organization'],
    ['portal:user:viewTracks', 'View location tracks'],
    ['portal:user:viewHostedFeatureServices', 'View hosted feature layers'],
    ['portal:user:viewHostedTileServices', 'View hosted tile layers'],
    ['premium:publisher:createNotebooks', 'Create and edit notebooks', 'both', { requires: ['portal:user:createItem'] }],
    ['premium:publisher:scheduleNotebooks', 'Schedule notebook tasks', 'both', { requires: ['premium:publisher:createNotebooks'] }],
    ['portal:user:runWebTool', 'Run web tools', 'self-hosted'],
    ['portal:user:reassignItems', 'Transfer own content to other members', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:user:receiveItems', 'Receive content transferred by others'],
    ['portal:user:categorizeItems', 'Categorize own content'],
    ['portal:user:createWorkflow', 'Create workflows'],
    ['portal:user:generateApiTokens', 'Generate API keys', 'both', { requires: ['portal:user:createItem'] }],
    ['portal:user:assignPrivilegesToApps', 'Assign privileges to developer credentials', 'both', { requires: ['portal:user:generateApiTokens'] }],
  ]),
  ...section('sharing', 'general', [
    ['portal:user:shareToGroup', 'Share own content with groups'],
    ['portal:user:shareToOrg', 'Share own content with the organization'],
    ['portal:user:shareToPublic', 'Share own content with everyone'],
    ['portal:user:shareGroupToOrg', 'Make own groups visible to the organization'],
    ['portal:user:shareGroupToPublic', 'Make own groups visible to everyone'],
  ]),
  ...section('premium content', 'general', [
    ['premium:user:geocode', 'Geocoding'],
    ['premium:user:geocode:stored', 'Geocoding with stored results', 'both', { requires: ['premium:user:geocode'] }],
    ['premium:user:geocode:temporary', 'Geocoding with temporary results', 'both', { requires: ['premium:user:geocode'] }],
    ['premium:user:networkanalysis', 'Network analysis'],
    ['premium:user:networkanalysis:routing', 'Routing', 'both', NA],
    ['premium:user:networkanalysis:optimizedrouting', 'Optimized routing', 'both', NA],
    ['premium:user:networkanalysis:closestfacility', 'Closest facility', 'both', NA],
    ['premium:user:networkanalysis:servicearea', 'Service area', 'both', NA],
    ['premium:user:networkanalysis:locationallocation', 'Location-allocation', 'both', NA],
    ['premium:user:networkanalysis:vehiclerouting', 'Vehicle routing', 'both', NA],
    ['premium:user:networkanalysis:origindestinationcostmatrix', 'Origin-destination cost matrix', 'both', NA],
    ['premium:user:networkanalysis:lastmiledelivery', 'Last-mile delivery', 'both', NA],
    ['premium:user:networkanalysis:snaptoroads', 'Snap to roads', 'both', NA],
    ['premium:user:spatialanalysis', 'Spatial analysis'],
    ['premium:user:geoenrichment', 'GeoEnrichment'],
    ['premium:user:demographics', 'Demographics'],
    ['premium:user:elevation', 'Elevation analysis'],
    ['premium:user:featurereport', 'Feature reports'],
    ['premium:user:places', 'Places'],
    ['premium:user:basemaps', 'Basemaps'],
    ['premium:user:staticbasemaptiles', 'Static basemap tiles'],
    ['premium:user:staticMaps', 'Static maps'],
    ['premium:user:boundaries', 'Boundaries'],
    ['premium:user:geometry', 'Geometry service'],
    ['premium:user:realitymapping', 'Reality mapping'],
    ['premium:publisher:rasteranalysis', 'Raster analysis', 'self-hosted'],
    ['premium:publisher:createAdvancedNotebooks', 'Notebooks with advanced runtimes', 'self-hosted', { requires: ['premium:publisher:createNotebooks'] }],
    ['premium:publisher:geoanalytics', 'GeoAnalytics', 'self-hosted'],
  ]),
  ...section('features', 'general', [
    ['features:user:edit', 'Edit features'],
    ['features:user:fullEdit', 'Edit with full control', 'both', { implies: ['features:user:edit'] }],
    ['features:user:editIndoorsSpaces', 'Edit indoor spaces', 'both', { requires: ['features:user:edit'] }],
  ]),
  ...section('version management', 'general', [
    ['features:user:manageVersions', 'Manage branch versions', 'self-hosted', { implies: ['features:user:edit', 'features:user:fullEdit'] }],
  ]),
  ...section('webhooks', 'general', [['portal:publisher:createFeatureWebhook', 'Create feature layer webhooks']]),
  ...section('open data', 'general', [['opendata:user:designateGroup', 'Designate open data groups', 'hosted']]),

  ...section('members', 'administrative', [
    ['portal:admin:viewUsers', 'View all members'],
    ['portal:admin:updateUsers', 'Update member accounts', 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:deleteUsers', 'Delete members', 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:inviteUsers', 'Add and invite members', 'hosted', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:disableUsers', 'Enable and disable members', 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:changeUserRoles', "Change members' roles (never to or from Administrator)", 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:manageLicenses', 'Manage user types and licenses', 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:updateMemberCategorySchema', 'Configure member categories', 'both', { requires: ['portal:admin:viewUsers'] }],
    ['portal:admin:reassignUsers', "Transfer members' ownership", 'both', { requires: ['portal:admin:viewUsers'] }],
  ]),
  ...section('groups', 'administrative', [
    ['portal:admin:viewGroups', 'View all groups'],
    ['portal:admin:updateGroups', 'Update groups', 'both', { requires: ['portal:admin:viewGroups'] }],
    ['portal:admin:deleteGroups', 'Delete groups', 'both', { requires: ['portal:admin:viewGroups'] }],
    ['portal:admin:reassignGroups', 'Transfer group ownership', 'both', { requires: ['portal:admin:viewGroups'] }],
    ['portal:admin:assignToGroups', 'Assign members to groups', 'both', { requires: ['portal:admin:viewGroups'] }],
    ['portal:admin:manageEnterpriseGroups', 'Link groups to enterprise groups', 'both', { requires: ['portal:admin:viewGroups'] }],
    ['portal:admin:createUpdateCapableGroup', 'Create groups with shared update', 'both', { requires: ['portal:user:createGroup'] }],
    ['portal:admin:createLeavingDisallowedGroup', 'Create groups members cannot leave', 'both', { requires: ['portal:user:createGroup'] }],
  ]),
  ...section('content', 'administrative', [
    ['portal:admin:viewItems', 'View all content'],
    ['portal:admin:updateItems', 'Update all content', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:deleteItems', 'Delete all content', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:reassignItems', 'Transfer any content', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:updateItemCategorySchema', 'Configure content categories'],
    ['portal:admin:categorizeItems', 'Categorize all content', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:updateItemClassificationSchema', 'Configure content classification'],
    ['portal:publisher:publishServerGPServices', 'Publish web tools', 'self-hosted'],
    ['portal:admin:createReports', 'Create administrative reports'],
  ]),
  ...section('sharing', 'administrative', [
    ['portal:admin:shareToGroup', 'Share any content with groups', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:shareToOrg', 'Share any content with the organization', 'both', { requires: ['portal:admin:viewItems'] }],
    ['portal:admin:shareToPublic', 'Share any content with everyone', 'both', { requires: ['portal:admin:viewItems'] }],
  ]),
  ...section('organization settings', 'administrative', [
    ['portal:admin:manageSecurity', 'Manage security and infrastructure'],
    ['portal:admin:manageWebsite', 'Manage the website'],
    ['portal:admin:manageCollaborations', 'Manage collaborations'],
    ['portal:admin:manageCredits', 'Manage credit budgeting', 'hosted'],
    ['portal:admin:manageRoles', 'Manage member roles'],
    ['portal:admin:manageUtilityServices', 'Manage utility services'],
    ['portal:admin:manageServers', 'Manage federated servers', 'self-hosted'],
    ['portal:admin:manageWebhooks', 'Manage organization webhooks'],
    ['portal:admin:manageLivingAtlasPackageImports', 'Manage Living Atlas package imports', 'self-hosted'],
    ['portal:admin:managePublicUrlUpdate', 'Update public URLs', 'self-hosted'],
  ]),
  ...section('webhooks', 'administrative', [['portal:admin:createGPWebhook', 'Create geoprocessing webhooks', 'self-hosted']]),
  ...section('marketplace', 'administrative', [
    ['marketplace:admin:manage', 'Manage marketplace listings', 'hosted'],
    ['marketplace:admin:purchase', 'Purchase marketplace listings', 'hosted'],
    ['marketplace:admin:startTrial', 'Start marketplace trials', 'hosted'],
  ]),
  ...section('open data', 'administrative', [['opendata:user:openDataAdmin', 'Administer open data', 'hosted']]),
];

/**
 * Every privilege id the catalogue knows, as a type: a check written with a misspelt id (or one
 * the catalogue does not have) does not compile.
 */
export type Privilege = (typeof CATALOGUE)[number]['id'];
export const PRIVILEGES: readonly PrivilegeDef[] = CATALOGUE;

export const PRIVILEGE_IDS: ReadonlySet<string> = new Set(PRIVILEGES.map((p) => p.id));
const BY_ID = new Map<string, PrivilegeDef>(PRIVILEGES.map((p) => [p.id, p]));
export const privilegeById = (id: string): PrivilegeDef | undefined => BY_ID.get(id);
export const isPrivilege = (id: string): id is Privilege => BY_ID.has(id);

/** The privileges named plus every privilege they imply, transitively. */
export function withImplied<Id extends string>(ids: Iterable<Id>): Set<Id | Privilege> {
  const out = new Set<Id | Privilege>();
  const visit = (id: Id | Privilege) => {
    if (out.has(id)) return;
    out.add(id);
    for (const implied of BY_ID.get(id)?.implies ?? []) visit(implied);
  };
  for (const id of ids) visit(id);
  return out;
}

export function isAdministrativePrivilege(id: string): boolean {
  return BY_ID.get(id)?.kind === 'administrative';
}

// ---------------------------------------------------------------- roles

export const BASE_ROLES = ['org_admin', 'org_publisher', 'org_user'] as const;
export type BaseRole = (typeof BASE_ROLES)[number];
export const BASE_ROLE_LABELS: Record<BaseRole, string> = {
  org_admin: 'Administrator',
  org_publisher: 'Publisher',
  org_user: 'User',
};

const USER_PRIVILEGES: Privilege[] = [
  'portal:user:viewOrgUsers',
  'portal:user:createGroup',
  'portal:user:joinGroup',
  'portal:user:joinNonOrgGroup',
  'portal:user:viewOrgGroups',
  'portal:user:createItem',
  'portal:user:viewOrgItems',
  'portal:user:viewHostedFeatureServices',
  'portal:user:viewHostedTileServices',
  'portal:user:receiveItems',
  'portal:user:categorizeItems',
  'portal:user:shareToGroup',
  'portal:user:shareToOrg',
  'portal:user:shareToPublic',
  'portal:user:shareGroupToOrg',
  'portal:user:shareGroupToPublic',
  'premium:user:geocode',
  'premium:user:networkanalysis',
  'premium:user:spatialanalysis',
  'premium:user:geoenrichment',
  'premium:user:demographics',
  'premium:user:elevation',
  'premium:user:basemaps',
  'features:user:edit',
];

const PUBLISHER_PRIVILEGES: Privilege[] = [
  ...USER_PRIVILEGES,
  'portal:publisher:publishFeatures',
  'portal:publisher:publishTiles',
  'portal:publisher:publishScenes',
  'portal:publisher:publishTiledImagery',
  'portal:publisher:publishDynamicImagery',
  'portal:publisher:publishKnowledgeGraph',
  'portal:publisher:publishVideo',
  'portal:publisher:publishServerServices',
  'portal:publisher:registerDataStores',
  'portal:publisher:createFeatureWebhook',
  'premium:publisher:createNotebooks',
  'premium:publisher:scheduleNotebooks',
  'portal:user:reassignItems',
  'features:user:fullEdit',
];

/** The privileges of the three base roles. Administrators hold the whole catalogue. */
export const BASE_ROLE_PRIVILEGES: Record<BaseRole, readonly Privilege[]> = {
  org_user: USER_PRIVILEGES,
  org_publisher: PUBLISHER_PRIVILEGES,
  org_admin: PRIVILEGES.map((p) => p.id),
};

/**
 * What a member holding this role may do — the one place a role's privileges are worked out, for the
 * caller of every request, the members a group admits, community/self and the role editor alike:
 * a custom role's list (`customPrivileges`, null for none) with what it implies, else the base
 * role's set. Ids the catalogue does not know are dropped (setPrivileges refuses them anyway).
 */
export function rolePrivileges(role: BaseRole, customPrivileges: Iterable<string> | null | undefined): Set<Privilege> {
  if (!customPrivileges) return new Set(BASE_ROLE_PRIVILEGES[role]);
  const out = new Set<Privilege>();
  for (const id of withImplied(customPrivileges)) if (isPrivilege(id)) out.add(id);
  return out;
}

/** Built-in custom roles that exist in every organization and can be neither changed nor deleted. */
export const BUILT_IN_ROLES = [
  {
    id: 'iAAAAAAAAAAAAAAA',
    name: 'Viewer',
    description: 'View items, groups and members; join groups. Cannot create, share or edit.',
    privileges: ['portal:user:viewOrgUsers', 'portal:user:joinGroup', 'portal:user:joinNonOrgGroup', 'portal:user:viewOrgGroups', 'portal:user:viewOrgItems'],
  },
  {
    id: 'iBBBBBBBBBBBBBBB',
    name: 'Data Editor',
    description: 'Viewer privileges plus editing features.',
    privileges: [
      'portal:user:viewOrgUsers',
      'portal:user:joinGroup',
      'portal:user:joinNonOrgGroup',
      'portal:user:viewOrgGroups',
      'portal:user:viewOrgItems',
      'features:user:edit',
    ],
  },
] as const;
export const BUILT_IN_ROLE_IDS: ReadonlySet<string> = new Set(BUILT_IN_ROLES.map((r) => r.id));

/**
 * The base role a member with a custom role is reported with (`role` beside `roleId`):
 * administrative privileges → org_admin, publishing privileges → org_publisher, else org_user.
 */
export function baseRoleForPrivileges(privileges: Iterable<string>): BaseRole {
  let publisher = false;
  for (const id of privileges) {
    if (isAdministrativePrivilege(id)) return 'org_admin';
    if (id.startsWith('portal:publisher:') || id.startsWith('premium:publisher:')) publisher = true;
  }
  return publisher ? 'org_publisher' : 'org_user';
}

/**
 * Every privilege the named ones need (`requires`), transitively and through what they include,
 * that neither they nor what they include already are: what the role editor ticks along with
 * them, as ArcGIS Online's does.
 */
export function prerequisitesOf(ids: Iterable<string>): Set<string> {
  const held = withImplied(ids);
  const out = new Set<string>();
  const visit = (id: string) => {
    for (const r of BY_ID.get(id)?.requires ?? []) {
      if (held.has(r) || out.has(r)) continue;
      out.add(r);
      for (const also of withImplied([r])) visit(also);
    }
  };
  for (const id of held) visit(id);
  return out;
}

/** Each held privilege whose prerequisites are not all held (implied ones count as held), in catalogue order. */
export function unmetPrerequisites(ids: Iterable<string>): { id: string; missing: string[] }[] {
  const held = withImplied(ids);
  return PRIVILEGES.flatMap((p) => {
    if (!held.has(p.id)) return [];
    const missing = (p.requires ?? []).filter((r) => !held.has(r));
    return missing.length ? [{ id: p.id, missing }] : [];
  });
}
