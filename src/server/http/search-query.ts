/**
 * The search `q` syntax clients send (facts §4): `field:value` pairs and free terms, quoted
 * phrases, `AND` between them, `*` for everything. Each search names the fields it knows; this
 * only splits the text.
 */
export interface QueryTerm {
  /** Lower-cased field name, or undefined for a free term. */
  field?: string;
  value: string;
}

export function tokenizeQuery(q: string): QueryTerm[] {
  const out: QueryTerm[] = [];
  const tokens = q.match(/(?:[^\s":()]+:\s*)?"[^"]*"|[^\s()]+/g) ?? [];
  for (const raw of tokens) {
    if (raw === 'AND' || raw === '*') continue;
    const m = /^([A-Za-z_]+):\s*(.*)$/.exec(raw);
    const value = (m ? m[2] : raw).replace(/^"|"$/g, '').replace(/\*/g, '').trim();
    if (!value) continue;
    out.push(m ? { field: m[1].toLowerCase(), value } : { value });
  }
  return out;
}

/** `%term%` for ILIKE, with the pattern characters of the term itself escaped. */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
