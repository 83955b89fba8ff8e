/**
 * How a reference reads in words on the dependency views: "as a layer", "as a basemap layer",
 * "through the relationship Map2Service". One place, so the item page, the organization view and
 * the confirm steps never name the same kind two ways.
 */
import type { DependencyEdge } from '../../../shared/contract/dependencies.ts';
import type { ReferenceKind } from '../../../shared/references/references.ts';
import { withArticle } from '../../lib/format.ts';

/** The kind as a noun ("layer", "basemap layer", "web map"). */
export const REFERENCE_KIND_NOUNS: Record<ReferenceKind, string> = {
  layer: 'layer',
  table: 'table',
  basemapLayer: 'basemap layer',
  groundLayer: 'ground (elevation) layer',
  webmap: 'web map',
  webscene: 'web scene',
  group: 'group',
  template: 'app template',
  dataSource: 'data source',
  widget: 'widget',
  storyResource: 'story resource',
  serviceUrl: 'service (its URL is a layer of it)',
  relationship: 'relationship',
};

/** "as a layer", "through the relationship Map2Service"; a kind this console does not know yet is named as it came. */
export function referenceInWords(edge: Pick<DependencyEdge, 'kind' | 'relationshipType'>): string {
  if (edge.kind === 'relationship') return edge.relationshipType ? `through the relationship ${edge.relationshipType}` : 'through a relationship';
  const noun = (REFERENCE_KIND_NOUNS as Partial<Record<string, string>>)[edge.kind] ?? edge.kind;
  return `as ${withArticle(noun)}`;
}

/** Several references between the same two items, each kind once: "as a layer and as a data source". */
export function referencesInWords(edges: readonly Pick<DependencyEdge, 'kind' | 'relationshipType'>[]): string {
  const words = [...new Set(edges.map(referenceInWords))];
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday": how fresh the browser's graph is. */
export function relativeTime(then: number, now = Date.now()): string {
  const ago = now - then;
  if (ago < 60_000) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (ago >= ms) return format.format(-Math.floor(ago / ms), unit);
  return 'just now';
}

/** A URL's host, for "links to <host>"; null for anything that is not an http(s) address (never shown as a link). */
export function webHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.host : null;
  } catch {
    return null;
  }
}
