/**
 * Member search `q`: free terms and `field:value` pairs (username, fullname, firstname, lastname,
 * email, role, roleid), combined with AND (also implied between terms), OR, NOT and parentheses.
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

export function parseUserQuery(q: string, emailOwnOnly?: string): Omit<MemberFilter, 'orgId'> {
  const tree = parseQuery(q);
  return {
    condition: (p) =>
      compileQuery(tree, (t) => {
        if (t.kind === 'range') return 'FALSE';
        const { field, value } = t;
        if (field === 'email') return emailMatch(p(likePattern(value)), emailOwnOnly, p);
        if (field && field in NAME_FIELDS) return `u.${NAME_FIELDS[field as keyof typeof NAME_FIELDS]} ILIKE ${p(likePattern(value))}`;
        if (field === 'role' || field === 'roleid') {
          // A base role matches members without a custom role; anything else is a custom role id.
          return value.startsWith('org_') ? `(u.role_id IS NULL AND u.role = ${p(value)})` : `u.role_id = ${p(value)}`;
        }
        if (field === 'orgid') return 'TRUE';
        const v = p(likePattern(value));
        return `(u.username ILIKE ${v} OR u.full_name ILIKE ${v} OR ${emailMatch(v, emailOwnOnly, p)})`;
      }),
  };
}
