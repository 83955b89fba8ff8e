/**
 * The member-search `q` syntax the console and rest-js send: free terms and `field:value` pairs
 * (username, fullname, firstname, lastname, email, role), `AND` between them, `*` for everyone.
 * Quoted phrases keep their spaces.
 */
import type { MemberFilter } from './repo.ts';

const NAME_FIELDS = {
  username: 'username',
  fullname: 'full_name',
  firstname: 'first_name',
  lastname: 'last_name',
  email: 'email',
} as const;

export function parseUserQuery(q: string): Omit<MemberFilter, 'orgId'> {
  const names: NonNullable<MemberFilter['names']> = [];
  const roles: string[] = [];
  const terms: string[] = [];
  const tokens = q.match(/(?:[^\s"]+:)?"[^"]*"|\S+/g) ?? [];
  for (const raw of tokens) {
    if (raw === 'AND' || raw === '*') continue;
    const m = /^(\w+):(.*)$/.exec(raw);
    const field = m?.[1].toLowerCase();
    const value = (m ? m[2] : raw).replace(/^"|"$/g, '').replace(/\*/g, '').trim();
    if (!value) continue;
    if (field && field in NAME_FIELDS) names.push({ column: NAME_FIELDS[field as keyof typeof NAME_FIELDS], value });
    else if (field === 'role' || field === 'roleid') roles.push(value);
    else if (!field || field === 'orgid') {
      if (!field) terms.push(value);
    } else terms.push(value);
  }
  return { names, roles, terms, intersect: true };
}
