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
  /**
   * How the origin relates to the destination, read from the origin: "<origin> uses <destination>"
   * (the forward list of an item shows these).
   */
  originVerb: string;
  /** The same link read from the destination: "<destination> is used by <origin>" (the backward list). */
  destinationVerb: string;
}

const t = (
  name: string,
  description: string,
  origin: readonly string[],
  destination: readonly string[],
  rules: Partial<Pick<RelationshipType, 'mustOwnOrigin' | 'mustOwnDestination'>>,
  [originVerb, destinationVerb]: readonly [string, string],
): RelationshipType => ({
  name,
  description,
  origin,
  destination,
  mustOwnOrigin: rules.mustOwnOrigin ?? false,
  mustOwnDestination: rules.mustOwnDestination ?? false,
  originVerb,
  destinationVerb,
});

const own = { mustOwnOrigin: true, mustOwnDestination: true };

/*
 * The words follow the ArcGIS "Relationship types" page: the origin is the first name in the type
 * (Map2AppConfig: the web map is the origin, the application configuration the destination, and
 * the application uses the map); Service2Data's origin is the derived service, its destination the
 * source data; Service2Service's origin is the source service, its destination the derived one.
 */
export const RELATIONSHIP_TYPES: readonly RelationshipType[] = [
  t('Map2Service', 'A web map uses a service', ['Web Map'], SERVICES, {}, ['uses', 'is used by']),
  t('WMA2Code', 'A web mapping application and its code', ['Web Mapping Application'], ['Code Attachment'], own, ['has its code in', 'holds the code of']),
  t('Map2FeatureCollection', 'A web map holds a feature collection', ['Web Map'], ['Feature Collection'], own, ['holds', 'is held in']),
  t('MobileApp2Code', 'A mobile application and its code', ['Mobile Application'], ['Code Attachment'], own, ['has its code in', 'holds the code of']),
  t('Service2Data', 'A service published from source data', SERVICES, DATA, own, ['was published from', 'is the source data of']),
  t('Service2Service', 'A source service and a service derived from it', SERVICES, SERVICES, { mustOwnOrigin: true }, ['is the source of', 'is derived from']),
  t(
    'Map2AppConfig',
    'An application configured to use a web map',
    ['Web Map', 'Web Scene'],
    ['Web Mapping Application', 'Dashboard', 'StoryMap', 'Web Experience'],
    { mustOwnDestination: true },
    ['is used by', 'uses'],
  ),
  t('Item2Attachment', 'An item and an attachment', ['*'], ['*'], { mustOwnOrigin: true }, ['has the attachment', 'is an attachment of']),
  t('Item2Report', 'An item and a report about it', ['*'], ['Report Template', 'Microsoft Word', 'PDF', 'Microsoft Excel'], { mustOwnDestination: true }, [
    'is reported on in',
    'is a report about',
  ]),
  t('Listed2Provisioned', 'A listed item and its provisioned copy', ['*'], ['*'], { mustOwnDestination: true }, [
    'was provisioned as',
    'is the provisioned copy of',
  ]),
  t('Style2Style', 'A style derived from another style', ['Style', 'Vector Tile Style'], ['Style', 'Vector Tile Style'], { mustOwnOrigin: true }, [
    'is the source of',
    'is derived from',
  ]),
  t('Service2Style', 'A service and its style', SERVICES, ['Style', 'Vector Tile Style'], { mustOwnDestination: true }, ['is drawn with', 'is the style of']),
  t('Survey2Service', 'A survey form and the feature service it writes to', ['Form'], ['Feature Service'], { mustOwnOrigin: true }, [
    'submits its answers to',
    'stores the answers of',
  ]),
  t('Survey2Data', 'A survey form and data it uses', ['Form'], ['*'], { mustOwnOrigin: true }, ['uses', 'is used by']),
  t('Service2Route', 'A network service and a route layer', ['Network Analysis Service', 'Feature Service'], ['Route Layer'], {}, [
    'holds the route in',
    'is a route of',
  ]),
  t(
    'Area2Package',
    'A map area and its packages',
    ['Map Area'],
    ['Mobile Map Package', 'Tile Package', 'Vector Tile Package', 'SQLite Geodatabase', 'Compact Tile Package'],
    own,
    ['is packaged as', 'is a package of'],
  ),
  t('Map2Area', 'A web map and its offline map areas', ['Web Map'], ['Map Area'], own, ['has the offline area', 'is an offline area of']),
  // Relationship types page: a map area and packages made for it by hand (not by the offline workflow); the creator owns both.
  t(
    'Area2CustomPackage',
    'A map area and a custom package made for it',
    ['Map Area'],
    ['Map Package', 'Mobile Map Package', 'Tile Package', 'Compact Tile Package', 'SQLite Geodatabase', 'Vector Tile Package'],
    own,
    ['is packaged by hand as', 'is a custom package of'],
  ),
  // A feature service (a hosted feature layer's item is typed Feature Service) and a layer item made from it; the creator owns both.
  t('Service2Layer', 'A feature service and a feature layer made from it', ['Feature Service'], ['Feature Service'], own, ['has the layer', 'is a layer of']),
  t('Map2IndoorsConfig', 'A web map and its Indoors configuration', ['Web Map'], ['Indoors Map Configuration'], own, [
    'is configured for Indoors by',
    'configures Indoors for',
  ]),
  // An app that another needs (a dashboard embedded in a story, say): sharing or deleting the first affects the second.
  t(
    'App2DependentApp',
    'An application and an application that needs it',
    [
      'Dashboard',
      'Web Mapping Application',
      'StoryMap',
      'Form',
      'Web Experience',
      'Hub Page',
      'Hub Site Application',
      'Web Experience Template',
      '360 VR Experience',
    ],
    ['StoryMap', 'SMX Item', 'Web Experience Template', 'Web Mapping Application', 'Web Experience', 'Dashboard'],
    {},
    ['is needed by', 'needs'],
  ),
  t('TrackView2Map', 'A track view and its web map', ['Web Map'], ['Feature Service'], { mustOwnOrigin: true }, [
    'shows the track view',
    'is the track view shown in',
  ]),
  t('SurveyAddIn2Data', 'A Survey123 add-in and its data', ['Survey123 Add In'], ['*'], { mustOwnOrigin: true }, ['uses', 'is used by']),
  t('WorkforceMap2FeatureService', 'A Workforce map and its feature service', ['Web Map'], ['Feature Service'], { mustOwnOrigin: true }, [
    'uses',
    'is used by',
  ]),
  t('Theme2Story', 'A story theme used by a story', ['StoryMap Theme'], ['StoryMap'], { mustOwnDestination: true }, ['is the theme of', 'uses the theme']),
  t('WebStyle2DesktopStyle', 'A web style made from a desktop style', ['Style'], ['Desktop Style'], { mustOwnOrigin: true }, [
    'was made from',
    'is the source of',
  ]),
  t('Solution2Item', 'A solution and an item it deployed', ['Solution'], ['*'], { mustOwnOrigin: true }, ['deployed', 'was deployed by']),
  t('APIKey2Item', 'An API key and an item it gives access to', ['API Key', 'Application'], ['*'], { mustOwnOrigin: true }, [
    'gives access to',
    'is reached with',
  ]),
  t('Item2Fileset', 'An item and a fileset', ['*'], ['*'], { mustOwnOrigin: true }, ['has the fileset', 'is a fileset of']),
];

/**
 * How `from` relates to the other end of a `type` link, in words: "uses", "is used by". `from` is
 * the end the reader stands on: the origin (forward list) or the destination (backward list).
 * An unknown type reads neutrally.
 */
export function relationshipVerb(type: string, from: 'origin' | 'destination'): string {
  const rel = findRelationshipType(type);
  if (!rel) return from === 'origin' ? `is related (${type}) to` : `is related (${type}) from`;
  return from === 'origin' ? rel.originVerb : rel.destinationVerb;
}

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
