/**
 * Relationship types (spec §2 Relationship, facts §3.9): each names the item types that may be
 * its origin and its destination (`*` where any type goes) and its ownership rules. The user need
 * not own the related items unless a rule says so.
 */

const SERVICES = [
  'Map Service',
  'Feature Service',
  'Image Service',
  'Vector Tile Service',
  'Scene Service',
  'WMS',
  'WMTS',
  'WFS',
  'KML',
  'Stream Service',
  'Geoprocessing Service',
  'Globe Service',
  'Geocoding Service',
  'Network Analysis Service',
];
const DATA = [
  'Service Definition',
  'CSV',
  'Shapefile',
  'File Geodatabase',
  'Microsoft Excel',
  'GeoJson',
  'GeoPackage',
  'KML',
  'Scene Package',
  'Tile Package',
  'Vector Tile Package',
  'Compact Tile Package',
  'Image Collection',
  'Feature Collection',
  'SQLite Geodatabase',
  'CAD Drawing',
  'Mobile Map Package',
];

export interface RelationshipType {
  name: string;
  description: string;
  origin: readonly string[];
  destination: readonly string[];
  /** The user making the relationship must own the origin item. */
  mustOwnOrigin: boolean;
  /** The user making the relationship must own the destination item. */
  mustOwnDestination: boolean;
}

const t = (
  name: string,
  description: string,
  origin: readonly string[],
  destination: readonly string[],
  rules: Partial<Pick<RelationshipType, 'mustOwnOrigin' | 'mustOwnDestination'>> = {},
): RelationshipType => ({
  name,
  description,
  origin,
  destination,
  mustOwnOrigin: rules.mustOwnOrigin ?? false,
  mustOwnDestination: rules.mustOwnDestination ?? false,
});

export const RELATIONSHIP_TYPES: readonly RelationshipType[] = [
  t('Map2Service', 'A web map uses a service', ['Web Map'], SERVICES),
  t('WMA2Code', 'A web mapping application and its code', ['Web Mapping Application'], ['Code Attachment'], { mustOwnOrigin: true, mustOwnDestination: true }),
  t('Map2FeatureCollection', 'A web map and a feature collection it holds', ['Web Map'], ['Feature Collection'], {
    mustOwnOrigin: true,
    mustOwnDestination: true,
  }),
  t('MobileApp2Code', 'A mobile application and its code', ['Mobile Application'], ['Code Attachment'], { mustOwnOrigin: true, mustOwnDestination: true }),
  t('Service2Data', 'A service and the data it was published from', SERVICES, DATA, { mustOwnOrigin: true, mustOwnDestination: true }),
  t('Service2Service', 'A service derived from another service', SERVICES, SERVICES, { mustOwnOrigin: true }),
  t(
    'Map2AppConfig',
    'A web map and an application configured for it',
    ['Web Map', 'Web Scene'],
    ['Web Mapping Application', 'Dashboard', 'StoryMap', 'Web Experience'],
    { mustOwnDestination: true },
  ),
  t('Item2Attachment', 'An item and an attachment', ['*'], ['*'], { mustOwnOrigin: true }),
  t('Item2Report', 'An item and a report about it', ['*'], ['Report Template', 'Microsoft Word', 'PDF', 'Microsoft Excel'], { mustOwnDestination: true }),
  t('Listed2Provisioned', 'A listed item and its provisioned copy', ['*'], ['*'], { mustOwnDestination: true }),
  t('Style2Style', 'A style derived from another style', ['Style', 'Vector Tile Style'], ['Style', 'Vector Tile Style'], { mustOwnOrigin: true }),
  t('Service2Style', 'A service and its style', SERVICES, ['Style', 'Vector Tile Style'], { mustOwnDestination: true }),
  t('Survey2Service', 'A survey form and the feature service it writes to', ['Form'], ['Feature Service'], { mustOwnOrigin: true }),
  t('Survey2Data', 'A survey form and data it uses', ['Form'], ['*'], { mustOwnOrigin: true }),
  t('Service2Route', 'A network service and a route layer', ['Network Analysis Service', 'Feature Service'], ['Route Layer']),
  t(
    'Area2Package',
    'A map area and its packages',
    ['Map Area'],
    ['Mobile Map Package', 'Tile Package', 'Vector Tile Package', 'SQLite Geodatabase', 'Compact Tile Package'],
    { mustOwnOrigin: true, mustOwnDestination: true },
  ),
  t('Map2Area', 'A web map and its offline map areas', ['Web Map'], ['Map Area'], { mustOwnOrigin: true, mustOwnDestination: true }),
  t('TrackView2Map', 'A track view and its web map', ['Web Map'], ['Feature Service'], { mustOwnOrigin: true }),
  t('SurveyAddIn2Data', 'A Survey123 add-in and its data', ['Survey123 Add In'], ['*'], { mustOwnOrigin: true }),
  t('WorkforceMap2FeatureService', 'A Workforce map and its feature service', ['Web Map'], ['Feature Service'], { mustOwnOrigin: true }),
  t('Theme2Story', 'A story theme used by a story', ['StoryMap Theme'], ['StoryMap'], { mustOwnDestination: true }),
  t('WebStyle2DesktopStyle', 'A web style made from a desktop style', ['Style'], ['Desktop Style'], { mustOwnOrigin: true }),
  t('Solution2Item', 'A solution and an item it deployed', ['Solution'], ['*'], { mustOwnOrigin: true }),
  t('APIKey2Item', 'An API key and an item it gives access to', ['API Key', 'Application'], ['*'], { mustOwnOrigin: true }),
  t('Item2Fileset', 'An item and a fileset', ['*'], ['*'], { mustOwnOrigin: true }),
];

const BY_NAME = new Map(RELATIONSHIP_TYPES.map((r) => [r.name.toLowerCase(), r]));

/** Case-insensitive lookup, answered with the canonical spelling. */
export function findRelationshipType(name: string): RelationshipType | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

const fits = (allowed: readonly string[], type: string) => allowed.includes('*') || allowed.some((a) => a.toLowerCase() === type.toLowerCase());

/** Why an origin/destination pair does not fit the type, or null when it does. */
export function pairProblem(rel: RelationshipType, originType: string, destinationType: string): string | null {
  if (!fits(rel.origin, originType)) return `A ${rel.name} relationship needs an origin of type ${rel.origin.join(', ')}, not '${originType}'.`;
  if (!fits(rel.destination, destinationType))
    return `A ${rel.name} relationship needs a destination of type ${rel.destination.join(', ')}, not '${destinationType}'.`;
  return null;
}
