/**
 * jsdom finds a form control's <label>s by walking the whole document and asking every node for the
 * control it labels, and a label with `for` finds that control by walking the whole document again:
 * a square of the page per `input.labels`. Testing Library computes accessible names through
 * `labels` for every candidate of a *ByRole query, so on a big form each query cost seconds
 * (the role editor's 120 checkboxes: `get control` alone was 5.5 of a file's 43 CPU-s).
 *
 * Same answers, found faster: a label's `for` goes through the document's id index
 * (getElementById, first in tree order, as the walk found), and a document's labels are grouped by
 * their control once per version of its tree (jsdom bumps the version on every node and attribute
 * change, and its live `labels` lists refresh from it), not once per control asked.
 */

import { createRequire } from 'node:module';

interface NodeImpl {
  _version: number;
  /** Only documents have it: their id index (getElementById answers the first in tree order). */
  _byIdCache?: unknown;
  getRootNode(options: object): NodeImpl;
  getAttributeNS(ns: null, name: string): string | null;
  hasAttributeNS(ns: null, name: string): boolean;
  getElementById(id: string): NodeImpl | null;
  getElementsByTagName(name: string): { length: number; _list: NodeImpl[] };
}
interface NodeListImpl {
  _element: NodeImpl;
  _query: () => NodeImpl[];
}

// jsdom's own test for what a label can label (button, input but hidden, select, form-associated custom elements…).
const { isLabelable } = createRequire(import.meta.url)('jsdom/lib/jsdom/living/helpers/form-controls.js') as {
  isLabelable: (node: NodeImpl) => boolean;
};
const LABELABLE_TAGS = ['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea'];
const PATCHED = Symbol.for('console-tests.fastLabels');

function implOf(wrapper: object): object {
  const symbol = Object.getOwnPropertySymbols(wrapper).find((s) => s.description === 'impl');
  if (!symbol) throw new Error('jsdom wrapper without its implementation');
  return (wrapper as Record<symbol, object>)[symbol];
}

/** Replaces a getter of jsdom's implementation class (shared by every window of the worker) once. */
function replaceGetter<T>(proto: object, name: string, make: (original: (this: T) => unknown) => (this: T) => unknown): void {
  const own = proto as Record<symbol, Set<string>>;
  if (!Object.hasOwn(proto, PATCHED)) own[PATCHED] = new Set();
  if (own[PATCHED].has(name)) return;
  for (let p: object | null = proto; p; p = Object.getPrototypeOf(p) as object | null) {
    const original = Object.getOwnPropertyDescriptor(p, name)?.get as ((this: T) => unknown) | undefined;
    if (!original) continue;
    Object.defineProperty(proto, name, { configurable: true, get: make(original) });
    own[PATCHED].add(name);
    return;
  }
  throw new Error(`jsdom has no ${name} getter here`);
}

/** Each document's labels by the control they label, for one version of its tree. */
const labelsByControl = new WeakMap<NodeImpl, { version: number; byControl: Map<object, NodeImpl[]> }>();

function labelsIn(document: NodeImpl, control: object): NodeImpl[] {
  let grouped = labelsByControl.get(document);
  if (grouped?.version !== document._version) {
    const byControl = new Map<object, NodeImpl[]>();
    const labels = document.getElementsByTagName('label');
    void labels.length; // brings the live collection up to date
    // Tree order, as jsdom's walk; only <label>s have a control.
    for (const label of labels._list) {
      const target = (label as { control?: object | null }).control;
      if (target) byControl.set(target, [...(byControl.get(target) ?? []), label]);
    }
    grouped = { version: document._version, byControl };
    labelsByControl.set(document, grouped);
  }
  return grouped.byControl.get(control) ?? [];
}

export function speedUpLabelLookups(document: Document): void {
  replaceGetter<NodeImpl>(
    Object.getPrototypeOf(implOf(document.createElement('label'))) as object,
    'control',
    (walk) =>
      function control() {
        const root = this.getRootNode({});
        if (!root._byIdCache || !this.hasAttributeNS(null, 'for')) return walk.call(this);
        const id = this.getAttributeNS(null, 'for');
        const target = id ? root.getElementById(id) : null;
        // The walk stops at the first element with that id: the control if it is labelable, else none.
        return target && isLabelable(target) ? target : null;
      },
  );
  for (const tag of LABELABLE_TAGS) {
    replaceGetter<NodeImpl>(
      Object.getPrototypeOf(implOf(document.createElement(tag))) as object,
      'labels',
      (live) =>
        function labels() {
          // jsdom's live list (refreshed when its root's version changes), with a cheaper query in a document.
          const list = live.call(this) as NodeListImpl | null;
          const root = list?._element;
          if (root?._byIdCache) list!._query = () => labelsIn(root, this);
          return list;
        },
    );
  }
}
