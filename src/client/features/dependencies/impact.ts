/**
 * What a risky change touches, from the dependents' answers (direction 'usedBy', transitive), as
 * rows a confirm step can say in words: each dependent once, what it uses and how ("uses 'Parks'
 * as a layer"), the items the caller cannot see (counted), and whether the walk was cut short.
 * Pure, so the confirm steps of delete, deprecate, transfer, sharing and URL changes agree.
 */
import type { DependencyAnswer, DependencyEdge, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { normalizeUrl } from '../../../shared/references/normalize.ts';
import { referencesInWords } from './wording.ts';

export interface ImpactUse {
  /** The item used: one being changed, or another dependent (an app uses the map that uses the layer). */
  id: string;
  title: string;
  /** "as a layer and as a data source". */
  how: string;
  edges: DependencyEdge[];
}

export interface ImpactEntry {
  node: DependencyNode;
  uses: ImpactUse[];
}

export interface Impact {
  entries: ImpactEntry[];
  /** Dependents the caller cannot see, over all the answers (an item hidden in two answers counts twice at most). */
  hidden: number;
  truncated: boolean;
}

/** The dependents of the changed items, each once (nearest first), the changed items themselves left out. */
export function impactOf(answers: readonly DependencyAnswer[], changed: readonly { id: string; title: string }[]): Impact {
  const changedIds = new Set(changed.map((c) => c.id.toLowerCase()));
  const nodes = new Map<string, DependencyNode>();
  const edges = new Map<string, DependencyEdge>();
  for (const a of answers) {
    for (const n of a.items) {
      const prev = nodes.get(n.id);
      if (!changedIds.has(n.id.toLowerCase()) && (!prev || n.depth < prev.depth)) nodes.set(n.id, n);
    }
    for (const e of a.edges) edges.set(`${e.from}\u0000${e.to}\u0000${e.path}`, e);
  }
  const titleOf = new Map<string, string>([...changed.map((c): [string, string] => [c.id.toLowerCase(), c.title])]);
  for (const n of nodes.values()) titleOf.set(n.id.toLowerCase(), n.title || n.id);
  const entries = [...nodes.values()]
    .sort((a, b) => a.depth - b.depth || a.title.localeCompare(b.title))
    .map((node): ImpactEntry => {
      const byTo = new Map<string, DependencyEdge[]>();
      for (const e of edges.values()) {
        if (e.from !== node.id || !titleOf.has(e.to.toLowerCase())) continue;
        byTo.set(e.to, [...(byTo.get(e.to) ?? []), e]);
      }
      const uses = [...byTo].map(([id, es]) => ({ id, title: titleOf.get(id.toLowerCase()) ?? id, how: referencesInWords(es), edges: es }));
      return { node, uses };
    });
  return {
    entries,
    hidden: answers.reduce((sum, a) => sum + a.hidden, 0),
    truncated: answers.some((a) => a.truncated),
  };
}

/**
 * A service item's URL change: the references that name the old address (an id reference follows
 * the item; a URL written into a map does not). Each with the address as written.
 */
export function oldUrlReferences(entries: readonly ImpactEntry[], itemId: string, oldUrl: string, newUrl: string): { entry: ImpactEntry; values: string[] }[] {
  const oldKey = normalizeUrl(oldUrl);
  if (!oldKey || oldKey === normalizeUrl(newUrl)) return [];
  const out: { entry: ImpactEntry; values: string[] }[] = [];
  for (const entry of entries) {
    const values = entry.uses
      .filter((u) => u.id.toLowerCase() === itemId.toLowerCase())
      .flatMap((u) => u.edges)
      .map((e) => e.value)
      .filter((v) => normalizeUrl(v) === oldKey);
    if (values.length) out.push({ entry, values: [...new Set(values)] });
  }
  return out;
}
