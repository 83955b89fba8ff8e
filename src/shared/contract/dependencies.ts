/**
 * Dependencies: what an item uses and what uses it (issue 26, docs/dependencies.md).
 *
 * ArcGIS has no such operation. On the local portal these are local-only operations over a
 * reference index kept in step with item data; on any other portal (or with LOCAL_EXTRAS=off) the
 * console builds the same answers in the browser from item data it reads itself. Both produce the
 * shapes below, so every page and confirm step reads one kind of answer.
 *
 * Local-only operations (answered as unknown paths with LOCAL_EXTRAS=off):
 *   content/items/<id>/dependencies   — what the item uses         (DependencyAnswer, direction 'uses')
 *   content/items/<id>/dependents     — what uses the item         (DependencyAnswer, direction 'usedBy')
 *   portals/<orgId>/dependencies      — the organization's view    (DependencySummaryAnswer)
 */
import { z } from 'zod';
import type { ReferenceKind } from '../references/references.ts';
import { LIMITS } from '../limits.ts';
import type { ContentStatus, Item } from './items.ts';
import { commaList, pagingParams, wireBool, wireInt } from './wire.ts';
import { visible, type Authority } from '../authority.ts';

export const DEPENDENCY_LIMITS = {
  /** Deepest level a transitive walk follows (a map in an app in a story in a hub site…). */
  maxDepth: 16,
  /** Most items one answer names; beyond it the answer says `truncated`. */
  maxNodes: 2_000,
  /** Most edges one answer lists (each one (from, to, kind) with its count). */
  maxEdges: LIMITS.dependencyEdgesPerAnswer,
  /** Most reference rows one step of the walk reads. */
  maxRowsPerStep: LIMITS.dependencyReferenceRowsPerStep,
} as const;

// ---------------------------------------------------------------- parameters

/** content/items/<id>/dependencies and …/dependents */
export const dependencyParams = z.object({
  /** Follow references further than one step (everything the item needs / everything that breaks). */
  transitive: wireBool.default(false),
  /** With transitive: how many steps at most (1 = direct only). */
  maxDepth: wireInt(1, DEPENDENCY_LIMITS.maxDepth).default(DEPENDENCY_LIMITS.maxDepth),
  f: z.enum(['json', 'pjson']).default('json'),
});
export type DependencyParams = z.output<typeof dependencyParams>;

export const DEPENDENCY_VIEWS = ['unused', 'usedByMany'] as const;
export type DependencyView = (typeof DEPENDENCY_VIEWS)[number];

/** portals/<orgId>/dependencies: clean-up candidates and the organization's most used items. */
export const dependencySummaryParams = pagingParams.extend({
  /** unused: items nothing references (oldest modified first); usedByMany: most dependents first. */
  view: z.enum(DEPENDENCY_VIEWS).default('unused'),
  /** Only items of these owners (usernames). */
  owners: commaList.optional(),
  /** Only items of these types (exact item types, e.g. "Feature Service"). */
  types: commaList.optional(),
  /** Only items last modified before this time (epoch ms): "not touched for a year". */
  modifiedBefore: wireInt(0, 8_640_000_000_000_000).optional(),
  /** usedByMany: at least this many dependents. */
  minDependents: wireInt(1, 1_000_000).default(2),
  f: z.enum(['json', 'pjson']).default('json'),
});
export type DependencySummaryParams = z.output<typeof dependencySummaryParams>;

// ---------------------------------------------------------------- answers

/** An item in an answer, with what a person needs to judge the impact (owner, sharing, status). */
export interface DependencyNode {
  id: string;
  title: string;
  type: string;
  owner: string;
  access: Item['access'];
  contentStatus: ContentStatus | null;
  url: string | null;
  modified: number;
  /** Steps from the item asked about (1 = direct). */
  depth: number;
}

/**
 * The references of one kind by which `from` uses `to` (the same orientation in both directions):
 * one edge per (from, to, kind), however often the data repeats the name, with how many there
 * are and one of them as an example (the first by path).
 */
export interface DependencyEdge {
  from: string;
  to: string;
  kind: ReferenceKind;
  /** How many references of this kind `from` holds to `to` (at least 1). */
  count: number;
  /** JSON Pointer to where `from`'s data names `to` ('' for relationships): the example. */
  path: string;
  /** The string as found at `path`: an id, or a URL with its layer (`…/FeatureServer/0`). */
  value: string;
  /** For `relationship`: e.g. `Map2Service`. */
  relationshipType?: string;
}

/** A service or web address an item uses that is no item of this portal the caller can see. */
export interface DependencyUrl {
  /** The using item. */
  from: string;
  /** The URL, normalised to the service root for ArcGIS services. */
  url: string;
  kind: ReferenceKind;
  value: string;
}

/** Where the answer came from: the portal's index, or the graph the console built in this browser. */
export interface DependencyGraphInfo {
  source: 'portal' | 'browser';
  /** browser: when the graph was last brought up to date (epoch ms). */
  builtAt?: number;
  /** browser: items whose data was read / items in the organization the caller can see. */
  itemsRead?: number;
  itemsTotal?: number;
}

export interface DependencyAnswer {
  /** The item asked about. */
  itemId: string;
  direction: 'uses' | 'usedBy';
  transitive: boolean;
  /** Items the caller can see, each once (the item asked about is not among them). */
  items: DependencyNode[];
  /**
   * References between the item asked about and `items` (and among `items`), none to hidden items:
   * one per (from, to, kind), at most DEPENDENCY_LIMITS.maxEdges.
   */
  edges: DependencyEdge[];
  /** direction 'uses': addresses that are no visible item. */
  urls: DependencyUrl[];
  /**
   * Items of the item's organization next to the walk that the caller cannot see: counted, never
   * named, never walked through; only for the item's owner and its organization's administrators
   * with viewItems (0 for anyone else), and never items of another organization.
   */
  hidden: number;
  /** A bound (depth, maxNodes, maxEdges, maxRowsPerStep) stopped the walk: there may be more. */
  truncated: boolean;
  graph: DependencyGraphInfo;
}

export interface DependencySummaryEntry extends Omit<DependencyNode, 'depth'> {
  /**
   * Items of its organization that use it: all of them for its owner and for administrators with
   * viewItems, otherwise those the caller can see.
   */
  dependents: number;
  /** Items it uses. */
  dependencies: number;
  created: number;
}

export interface DependencySummaryAnswer {
  view: DependencyView;
  total: number;
  start: number;
  num: number;
  nextStart: number;
  results: DependencySummaryEntry[];
  graph: DependencyGraphInfo;
}

/** Who may call each dependency operation: anyone, on what the items' sharing shows them (portal:admin:viewItems shows the organization's). */
export const DEPENDENCY_OPERATIONS = {
  itemDependencies: visible('portal:admin:viewItems'),
  itemDependents: visible('portal:admin:viewItems'),
  organizationDependencies: visible('portal:admin:viewItems'),
} as const satisfies Record<string, Authority>;
