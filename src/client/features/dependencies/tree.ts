/**
 * A dependency answer as a tree to read top-down: for "Used by", an app under the map it uses under
 * the layer; for "Uses", a layer under the map under the app. The answer is a graph (a layer can be
 * in two maps, a map in two apps), so each item is drawn once, under the first item that leads to
 * it on a shortest path, and the other items that lead to it are named beside it ("also through").
 */
import type { DependencyAnswer, DependencyEdge, DependencyNode } from '../../../shared/contract/dependencies.ts';

export interface DependencyTreeNode {
  item: DependencyNode;
  /** The references between this item and the one it is drawn under (its parent, or the item asked about). */
  edges: DependencyEdge[];
  /** Other items in the answer that lead to this one too (it is drawn only once). */
  alsoThrough: DependencyNode[];
  /** Reached only through items the caller cannot see: drawn at the top level, said so. */
  throughHidden: boolean;
  children: DependencyTreeNode[];
}

export function buildDependencyTree(answer: Pick<DependencyAnswer, 'itemId' | 'direction' | 'items' | 'edges'>): DependencyTreeNode[] {
  const root = answer.itemId.toLowerCase();
  const byId = new Map(answer.items.map((n) => [n.id.toLowerCase(), n]));
  // Who is drawn under whom: "Used by" goes from a used item to its users (edge.to → edge.from),
  // "Uses" from a user to what it uses (edge.from → edge.to).
  const down = (e: DependencyEdge) =>
    answer.direction === 'usedBy' ? { parent: e.to.toLowerCase(), child: e.from.toLowerCase() } : { parent: e.from.toLowerCase(), child: e.to.toLowerCase() };
  const childrenOf = new Map<string, Map<string, DependencyEdge[]>>();
  for (const edge of answer.edges) {
    const { parent, child } = down(edge);
    if (child === root || parent === child) continue;
    const kids = childrenOf.get(parent) ?? new Map<string, DependencyEdge[]>();
    kids.set(child, [...(kids.get(child) ?? []), edge]);
    childrenOf.set(parent, kids);
  }

  const placed = new Map<string, DependencyTreeNode>();
  const top: DependencyTreeNode[] = [];
  // Breadth first: every item lands at the depth of its shortest path, under the first parent there.
  let level: { id: string; node: DependencyTreeNode | null }[] = [{ id: root, node: null }];
  while (level.length) {
    const next: typeof level = [];
    for (const { id, node: parentNode } of level) {
      for (const [childId, edges] of childrenOf.get(id) ?? []) {
        const item = byId.get(childId);
        if (!item) continue; // an edge to something not in the answer: nothing to draw
        const already = placed.get(childId);
        if (already) {
          const parentItem = byId.get(id);
          if (parentItem && !already.alsoThrough.includes(parentItem)) already.alsoThrough.push(parentItem);
          continue;
        }
        const node: DependencyTreeNode = { item, edges, alsoThrough: [], throughHidden: false, children: [] };
        placed.set(childId, node);
        (parentNode ? parentNode.children : top).push(node);
        next.push({ id: childId, node });
      }
    }
    level = next;
  }
  // Items the walk reached through an item the caller cannot see have no visible path to follow.
  for (const item of answer.items) {
    const id = item.id.toLowerCase();
    if (id === root || placed.has(id)) continue;
    const node: DependencyTreeNode = { item, edges: [], alsoThrough: [], throughHidden: true, children: [] };
    placed.set(id, node);
    top.push(node);
  }
  sortTree(top);
  return top;
}

function sortTree(nodes: DependencyTreeNode[]): void {
  nodes.sort((a, b) => a.item.title.localeCompare(b.item.title) || a.item.id.localeCompare(b.item.id));
  for (const n of nodes) sortTree(n.children);
}

/** How many items the tree draws (each once). */
export function countTree(nodes: readonly DependencyTreeNode[]): number {
  return nodes.reduce((sum, n) => sum + 1 + countTree(n.children), 0);
}
