/**
 * Member search `q`: free terms and `field:value` pairs (username, fullname, firstname, lastname,
 * email, role, roleid, disabled, userlicensetype) and date ranges (`created`, `modified`,
 * `lastlogin`: `[a TO b]` inclusive, `{a TO b}` exclusive), combined with AND (also implied
 * between terms), OR, NOT and parentheses.
 * Email addresses hidden from the caller (`emailOwnOnly`, repo.ts) match only on the caller's own
 * row: guessing another member's address, whole or by prefix, answers as a wrong guess does.
 */
import { compileQuery, likePattern, parseQuery } from '../../http/search-query.ts';
import { emailMatch, type MemberFilter } from './repo.ts';

const NAME_FIELDS = {
  username: 'username',
  fullname: 'full_name',
  firstname: 'first_name',
  lastname: 'last_name',
  email: 'email',
} as const;

/** Dates a range may bound (`created:[a TO b]`, epoch ms or an ISO date; `*` leaves a side open). */
const RANGE_COLUMNS = { created: 'u.created', modified: 'u.modified', lastlogin: 'u.last_login' } as const;

function rangeBound(v: string): number | undefined {
  if (!v || v === '*') return undefined;
  if (/^-?\d+$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

export function parseUserQuery(q: string, emailOwnOnly?: string): Omit<MemberFilter, 'orgId'> {
  const tree = parseQuery(q);
  return {
    condition: (p) =>
      compileQuery(tree, (t) => {
        if (t.kind === 'range') {
          const column = RANGE_COLUMNS[t.field as keyof typeof RANGE_COLUMNS];
          if (!column) return 'FALSE';
          const [lo, hi] = [rangeBound(t.from), rangeBound(t.to)];
          const parts: string[] = [];
          if (lo !== undefined) parts.push(`${column} ${t.inclusive ? '>=' : '>'} ${p(lo)}`);
          if (hi !== undefined) parts.push(`${column} ${t.inclusive ? '<=' : '<'} ${p(hi)}`);
          return parts.length ? `(${parts.join(' AND ')})` : 'TRUE';
        }
        const { field, value } = t;
        if (field === 'email') return emailMatch(p(likePattern(value)), emailOwnOnly, p);
        if (field && field in NAME_FIELDS) return `u.${NAME_FIELDS[field as keyof typeof NAME_FIELDS]} ILIKE ${p(likePattern(value))}`;
        if (field === 'role' || field === 'roleid') {
          // A base role matches members without a custom role; anything else is a custom role id.
          return value.startsWith('org_') ? `(u.role_id IS NULL AND u.role = ${p(value)})` : `u.role_id = ${p(value)}`;
        }
        if (field === 'orgid') return 'TRUE';
        if (field === 'disabled') return value.toLowerCase() === 'true' ? 'u.disabled' : value.toLowerCase() === 'false' ? 'NOT u.disabled' : 'FALSE';
        if (field === 'userlicensetype' || field === 'userlicensetypeid') return `lower(u.user_license_type_id) = lower(${p(value)})`;
        const v = p(likePattern(value));
        return `(u.username ILIKE ${v} OR u.full_name ILIKE ${v} OR ${emailMatch(v, emailOwnOnly, p)})`;
      }),
  };
}
