/**
 * Member search `q`: free terms and `field:value` pairs (username, fullname, firstname, lastname,
 * email, role); every part must match.
 */
import { tokenizeQuery } from '../../http/search-query.ts';
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
  for (const { field, value } of tokenizeQuery(q)) {
    if (field && field in NAME_FIELDS) names.push({ column: NAME_FIELDS[field as keyof typeof NAME_FIELDS], value });
    else if (field === 'role' || field === 'roleid') roles.push(value);
    else if (field !== 'orgid') terms.push(value);
  }
  return { names, roles, terms, intersect: true };
}
