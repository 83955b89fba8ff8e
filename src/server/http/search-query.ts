/**
 * The search `q` syntax clients send (facts §4): `field:value` pairs (also `field: value`, as the
 * rest-js share helpers send it), free terms, quoted phrases, `AND` / `OR` / `NOT` (and `-term`),
 * parentheses, `field:(a OR b)`, ranges `field:[from TO to]` (`{…}` exclusive), boosts `^n`
 * (ignored) and `*` for everything. Terms side by side without an operator must all match.
 *
 * parseQuery turns the text into a small tree; compileQuery turns the tree into one SQL condition,
 * asking the caller (each search knows its own fields) for the condition of every leaf.
 */
import { badParam } from './errors.ts';

export type QueryNode =
  { kind: 'all' } | { kind: 'and'; children: QueryNode[] } | { kind: 'or'; children: QueryNode[] } | { kind: 'not'; child: QueryNode } | QueryLeaf;

export type QueryLeaf =
  /** A value: `field` lower-cased, or undefined for a free term. `prefix` when it ended with `*`. */
  | { kind: 'term'; field?: string; value: string; phrase: boolean; prefix: boolean }
  | { kind: 'range'; field: string; from: string; to: string; inclusive: boolean };

/** Deeper nesting than this is refused (a query is text from anyone; recursion must stay bounded). */
const MAX_DEPTH = 32;

type Token =
  | { t: 'lparen' }
  | { t: 'rparen' }
  | { t: 'and' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: 'field'; name: string }
  | { t: 'range'; from: string; to: string; inclusive: boolean }
  | { t: 'value'; value: string; phrase: boolean; negated: boolean };

/**
 * `from TO to` inside a range's brackets (either bound may be empty: `[ TO b]`), split on blanks:
 * the pattern `^\s*(\S*)\s+TO\s+(\S*)\s*$` is quadratic in a run of blanks, and `q` is request data.
 */
function rangeBounds(body: string): [string, string] | undefined {
  const words = body.split(/\s+/).filter((w) => w !== '');
  const isTo = (w: string) => w.toUpperCase() === 'TO';
  const lead = /^\s/.test(body);
  const trail = /\s$/.test(body);
  if (words.length === 3 && isTo(words[1])) return [words[0], words[2]];
  if (words.length === 2 && trail && isTo(words[1])) return [words[0], ''];
  if (words.length === 2 && lead && isTo(words[0])) return ['', words[1]];
  if (words.length === 1 && lead && trail && isTo(words[0])) return ['', ''];
  return undefined;
}

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = q.length;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  while (i < n) {
    const c = q[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      out.push({ t: 'lparen' });
      i++;
      continue;
    }
    if (c === ')') {
      out.push({ t: 'rparen' });
      i++;
      continue;
    }
    if (c === '[' || c === '{') {
      const close = c === '[' ? ']' : '}';
      const end = q.indexOf(close, i + 1);
      const body = q.slice(i + 1, end < 0 ? n : end);
      const m = rangeBounds(body);
      if (m) out.push({ t: 'range', from: unquote(m[0]), to: unquote(m[1]), inclusive: c === '[' });
      else out.push({ t: 'value', value: body.trim(), phrase: true, negated: false });
      i = end < 0 ? n : end + 1;
      i = skipBoost(q, i);
      continue;
    }
    let negated = false;
    if ((c === '-' || c === '+') && i + 1 < n && !isSpace(q[i + 1])) {
      negated = c === '-';
      i++;
    }
    // `field:` — the value (word, phrase, range or group) follows, with or without a space.
    const fieldName = /^([A-Za-z_][A-Za-z0-9_.]*):/.exec(q.slice(i, i + 130));
    if (fieldName) {
      if (negated) out.push({ t: 'not' });
      out.push({ t: 'field', name: fieldName[1].toLowerCase() });
      i += fieldName[0].length;
      continue;
    }
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const value = q.slice(i + 1, end < 0 ? n : end);
      i = skipBoost(q, end < 0 ? n : end + 1);
      if (negated) out.push({ t: 'not' });
      out.push({ t: 'value', value, phrase: true, negated: false });
      continue;
    }
    // A bare word: up to whitespace, a parenthesis or a quote.
    let j = i;
    while (j < n && !isSpace(q[j]) && q[j] !== '(' && q[j] !== ')' && q[j] !== '"') j++;
    let word = q.slice(i, j);
    i = j;
    if (!negated && (word === 'AND' || word === '&&')) out.push({ t: 'and' });
    else if (!negated && (word === 'OR' || word === '||')) out.push({ t: 'or' });
    else if (!negated && (word === 'NOT' || word === '!')) out.push({ t: 'not' });
    else {
      word = stripBoost(word);
      if (!word) continue;
      if (negated) out.push({ t: 'not' });
      out.push({ t: 'value', value: word, phrase: false, negated: false });
    }
  }
  return out;
}

const unquote = (s: string) => s.replace(/^"|"$/g, '');
const stripBoost = (s: string) => s.replace(/\^\d+(\.\d+)?$/, '');
function skipBoost(q: string, i: number): number {
  const m = /^\^\d+(\.\d+)?/.exec(q.slice(i));
  return m ? i + m[0].length : i;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): QueryNode {
    const node = this.or(undefined, 0);
    // Unbalanced closing parentheses: read on, everything else joins with AND.
    const rest: QueryNode[] = [node];
    while (this.pos < this.tokens.length) {
      this.pos++;
      rest.push(this.or(undefined, 0));
    }
    return simplify({ kind: 'and', children: rest });
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private or(field: string | undefined, depth: number): QueryNode {
    const children: QueryNode[] = [];
    const first = this.and(field, depth);
    if (first) children.push(first);
    while (this.peek()?.t === 'or') {
      this.pos++;
      // An empty side (`a OR`) is dropped, not read as "everything".
      const next = this.and(field, depth);
      if (next) children.push(next);
    }
    if (!children.length) return { kind: 'all' };
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }

  private and(field: string | undefined, depth: number): QueryNode | null {
    const children: QueryNode[] = [];
    for (;;) {
      const tok = this.peek();
      if (!tok || tok.t === 'rparen' || tok.t === 'or') break;
      if (tok.t === 'and') {
        this.pos++;
        continue;
      }
      children.push(this.unary(field, depth));
    }
    if (!children.length) return null;
    return children.length === 1 ? children[0] : { kind: 'and', children };
  }

  private unary(field: string | undefined, depth: number): QueryNode {
    if (this.peek()?.t === 'not') {
      this.pos++;
      if (depth > MAX_DEPTH) throw tooDeep();
      const next = this.peek();
      if (!next || next.t === 'rparen' || next.t === 'or' || next.t === 'and') return { kind: 'all' };
      return { kind: 'not', child: this.unary(field, depth + 1) };
    }
    return this.primary(field, depth);
  }

  private primary(field: string | undefined, depth: number): QueryNode {
    const tok = this.tokens[this.pos++];
    switch (tok.t) {
      case 'lparen': {
        if (depth >= MAX_DEPTH) throw tooDeep();
        const inner = this.or(field, depth + 1);
        if (this.peek()?.t === 'rparen') this.pos++;
        return inner;
      }
      case 'field': {
        const next = this.peek();
        if (!next || next.t === 'rparen' || next.t === 'or' || next.t === 'and') return { kind: 'all' };
        if (next.t === 'field') return { kind: 'all' };
        if (next.t === 'not' || next.t === 'lparen') return this.unary(tok.name, depth + 1);
        return this.primary(tok.name, depth + 1);
      }
      case 'range':
        return field ? { kind: 'range', field, from: tok.from, to: tok.to, inclusive: tok.inclusive } : { kind: 'all' };
      case 'value':
        return leaf(field, tok.value, tok.phrase);
      default:
        // A stray operator where a value belongs: ignore it.
        return { kind: 'all' };
    }
  }
}

function leaf(field: string | undefined, raw: string, phrase: boolean): QueryNode {
  if (raw === '*' && !phrase) return { kind: 'all' };
  const prefix = !phrase && raw.endsWith('*');
  const value = (phrase ? raw : raw.replace(/\*/g, '')).trim();
  if (!value) return { kind: 'all' };
  return { kind: 'term', ...(field ? { field } : {}), value, phrase, prefix };
}

const tooDeep = () => badParam('q', `is nested too deeply (at most ${MAX_DEPTH} levels)`);

/** Drops `all` from AND lists, flattens nested lists of the same kind. */
function simplify(node: QueryNode): QueryNode {
  if (node.kind === 'and' || node.kind === 'or') {
    const children: QueryNode[] = [];
    for (const c of node.children.map(simplify)) {
      if (c.kind === node.kind) children.push(...c.children);
      else children.push(c);
    }
    if (node.kind === 'and') {
      const kept = children.filter((c) => c.kind !== 'all');
      if (!kept.length) return { kind: 'all' };
      return kept.length === 1 ? kept[0] : { kind: 'and', children: kept };
    }
    if (children.some((c) => c.kind === 'all')) return { kind: 'all' };
    return children.length === 1 ? children[0] : { kind: 'or', children };
  }
  if (node.kind === 'not') return { kind: 'not', child: simplify(node.child) };
  return node;
}

export function parseQuery(q: string | undefined): QueryNode {
  if (!q || !q.trim()) return { kind: 'all' };
  return new Parser(tokenize(q)).parse();
}

/**
 * One SQL condition for the tree. `leafSql` answers the condition of one leaf, using `param` to
 * bind values ($n); it returns 'FALSE' for a field the search does not know, or 'TRUE' for one it
 * ignores.
 */
export function compileQuery(node: QueryNode, leafSql: (leaf: QueryLeaf) => string): string {
  switch (node.kind) {
    case 'all':
      return 'TRUE';
    case 'and':
      return `(${node.children.map((c) => compileQuery(c, leafSql)).join(' AND ')})`;
    case 'or':
      return `(${node.children.map((c) => compileQuery(c, leafSql)).join(' OR ')})`;
    case 'not':
      return `(NOT ${compileQuery(node.child, leafSql)})`;
    default:
      return leafSql(node);
  }
}

/** The leaves of the tree, in order (for searches that only look at fields). */
export function queryLeaves(node: QueryNode): QueryLeaf[] {
  if (node.kind === 'all') return [];
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(queryLeaves);
  if (node.kind === 'not') return queryLeaves(node.child);
  return [node];
}

export interface QueryTerm {
  /** Lower-cased field name, or undefined for a free term. */
  field?: string;
  value: string;
}

/** The terms of the query as a flat list (field, value), operators dropped. */
export function tokenizeQuery(q: string): QueryTerm[] {
  return queryLeaves(parseQuery(q)).flatMap((l) => (l.kind === 'term' ? [l.field ? { field: l.field, value: l.value } : { value: l.value }] : []));
}

/** `%term%` for ILIKE, with the pattern characters of the term itself escaped. */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** `term%` for ILIKE. */
export const prefixPattern = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
