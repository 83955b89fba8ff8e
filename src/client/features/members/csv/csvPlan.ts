/**
 * Members from a CSV file, judged row by row before anything is sent: the columns are found by
 * their header (in any order, spelled as people write them), and each row gets every problem it
 * has — a missing or invalid username, email or password, a username or email given twice in the
 * file, an existing member, an unknown role or user type, a role the user type does not allow
 * (src/shared/userTypes.ts, the rule the portal applies too), or a role the giver may not give.
 * Only rows without problems are sent, each as one createUser.
 */
import { createUserParams, type CreateUserParams } from '../../../../shared/contract/users.ts';
import { BUILT_IN_ROLES } from '../../../../shared/privileges.ts';
import { USER_LICENSE_TYPE_LABELS } from '../../../../shared/userTypes.ts';
import type { PortalUser, RoleRecord } from '../../../api/index.ts';
import { BASE_ROLE_LABELS, BASE_ROLES } from '../../../lib/roles.ts';
import { pairRefusal } from '../compatibility.ts';
import { assignRolePermission } from '../permissions.ts';
import type { ParsedCsv } from './parseCsv.ts';

/** The largest file read (a CSV of the most rows with long names fits well within it). */
export const CSV_MAX_BYTES = 256 * 1024;
/** The most members one file adds: each is one request, and the preview shows every row. */
export const CSV_MAX_ROWS = 500;

type Field = 'username' | 'email' | 'password' | 'firstname' | 'lastname' | 'role' | 'userLicenseTypeId';

/** Header cells, lower case without spaces, dashes or underscores → the field they name. */
const HEADERS: Record<string, Field> = {
  username: 'username',
  user: 'username',
  login: 'username',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  password: 'password',
  firstname: 'firstname',
  givenname: 'firstname',
  lastname: 'lastname',
  surname: 'lastname',
  familyname: 'lastname',
  role: 'role',
  usertype: 'userLicenseTypeId',
  userlicensetype: 'userLicenseTypeId',
  userlicensetypeid: 'userLicenseTypeId',
  licensetype: 'userLicenseTypeId',
};
const REQUIRED: readonly Field[] = ['username', 'email', 'password'];
export const CSV_COLUMNS_NOTE = 'Columns: Username, Email, Password (required); First name, Last name, Role, User type (optional).';

const key = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');

export interface MemberCsvRow {
  line: number;
  username: string;
  email: string;
  fullName: string;
  /** The role as written, and what it names (a base role or a custom role id) when known. */
  roleText: string;
  /** The user type as written. */
  userTypeText: string;
  /** What createUser is sent; present only when the row has no problems. */
  params?: CreateUserParams;
  problems: string[];
}

type CsvPlan = { ok: true; rows: MemberCsvRow[] } | { ok: false; error: string };

type Giver = Parameters<typeof assignRolePermission>[0];

/** A role as written: a base role's value or name, or a custom role's id or name. */
function resolveRole(text: string, roles: readonly Pick<RoleRecord, 'id' | 'name'>[]): string | null {
  const k = key(text);
  const base = BASE_ROLES.find((r) => key(r) === k || key(BASE_ROLE_LABELS[r]) === k);
  if (base) return base;
  return roles.find((r) => r.id === text || key(r.name) === k)?.id ?? null;
}

function resolveUserType(text: string): string | null {
  const k = key(text);
  const found = Object.entries(USER_LICENSE_TYPE_LABELS).find(([id, label]) => key(id) === k || key(label) === k);
  return found?.[0] ?? null;
}

const FIELD_NAMES: Record<string, string> = { username: 'Username', email: 'Email', password: 'Password', firstname: 'First name', lastname: 'Last name' };

function findColumns(header: readonly string[]): Map<Field, number> {
  const columns = new Map<Field, number>();
  header.forEach((cell, i) => {
    const field = HEADERS[key(cell)];
    if (field && !columns.has(field)) columns.set(field, i);
  });
  return columns;
}

/** The file's usernames (each once), to look up who is a member already; none past the row cap. */
export function csvUsernames(parsed: ParsedCsv): string[] {
  const index = parsed.rows.length ? findColumns(parsed.rows[0].cells).get('username') : undefined;
  if (index === undefined || parsed.rows.length - 1 > CSV_MAX_ROWS) return [];
  return [
    ...new Set(
      parsed.rows
        .slice(1)
        .map((r) => (r.cells[index] ?? '').trim())
        .filter(Boolean),
    ),
  ];
}

export function planMembersCsv(
  parsed: ParsedCsv,
  ctx: { giver: Giver; customRoles: readonly RoleRecord[] | undefined; existing: ReadonlyMap<string, PortalUser | null> },
): CsvPlan {
  if (parsed.unterminatedQuote) return { ok: false, error: 'A quoted field is not closed: check the file’s quotes.' };
  const [header, ...body] = parsed.rows;
  if (!header) return { ok: false, error: 'The file is empty.' };
  const columns = findColumns(header.cells);
  const missing = REQUIRED.filter((f) => !columns.has(f));
  if (missing.length) return { ok: false, error: `The first row must name the columns; missing: ${missing.join(', ')}. ${CSV_COLUMNS_NOTE}` };
  if (!body.length) return { ok: false, error: 'The file has a header row but no members.' };
  if (body.length > CSV_MAX_ROWS) return { ok: false, error: `The file has ${body.length} members; at most ${CSV_MAX_ROWS} can be added from one file.` };

  // The organization's roles, and the built-in ones when they could not be read.
  const builtIn = BUILT_IN_ROLES.filter((b) => !ctx.customRoles?.some((r) => r.id === b.id)).map((r) => ({
    id: r.id,
    name: r.name,
    privileges: [...r.privileges],
  }));
  const roles: Pick<RoleRecord, 'id' | 'name' | 'privileges'>[] = [...(ctx.customRoles ?? []), ...builtIn];
  const firstLine = { username: new Map<string, number>(), email: new Map<string, number>() };
  return {
    ok: true,
    rows: body.map(({ line, cells }) => {
      const get = (f: Field) => (columns.has(f) ? (cells[columns.get(f)!] ?? '').trim() : '');
      const [username, email, password, firstname, lastname, roleText, userTypeText] = (
        ['username', 'email', 'password', 'firstname', 'lastname', 'role', 'userLicenseTypeId'] as const
      ).map(get);
      const problems: string[] = [];
      const role = roleText ? resolveRole(roleText, roles) : undefined;
      const userType = userTypeText ? resolveUserType(userTypeText) : undefined;
      const candidate = { username, email, password, firstname, lastname, role: role ?? undefined, userLicenseTypeId: userType ?? undefined };
      const checked = createUserParams.safeParse(candidate);
      if (!username) problems.push('Username is missing');
      if (!email) problems.push('Email is missing');
      if (!password) problems.push('Password is missing');
      if (!checked.success) {
        // One message a field, by the service's own rules; a missing value is said above already.
        for (const [field, name] of Object.entries(FIELD_NAMES)) {
          const issue = checked.error.issues.find((i) => i.path[0] === field);
          if (issue && get(field as Field)) problems.push(`${name} ${issue.message}`);
        }
      }
      for (const f of ['username', 'email'] as const) {
        const value = get(f).toLowerCase();
        if (!value) continue;
        const seen = firstLine[f].get(value);
        if (seen !== undefined) problems.push(`${f === 'username' ? 'Username' : 'Email'} is also on line ${seen}`);
        else firstLine[f].set(value, line);
      }
      if (username && ctx.existing.get(username.toLowerCase())) problems.push('Already a member');
      if (roleText && !role) problems.push(`Unknown role “${roleText}”`);
      if (userTypeText && !userType) problems.push(`Unknown user type “${userTypeText}”`);
      if (role) {
        const refusal = pairRefusal(userType ?? undefined, role, roles);
        if (refusal) problems.push(refusal);
        const grant = assignRolePermission(ctx.giver, role, roles);
        if (!grant.allowed) problems.push(grant.reason);
      }
      const fullName = [firstname, lastname].filter(Boolean).join(' ');
      const row: MemberCsvRow = { line, username, email, fullName, roleText, userTypeText, problems };
      if (!problems.length && checked.success) row.params = checked.data;
      return row;
    }),
  };
}
