/** The members CSV: the parser (quotes, separators, line numbers) and each row's problems. */
import { describe, expect, it } from 'vitest';
import type { PortalUser, RoleRecord } from '../../../api/index.ts';
import { CSV_MAX_ROWS, csvUsernames, planMembersCsv } from './csvPlan.ts';
import { parseCsv } from './parseCsv.ts';

const admin = { role: 'org_admin', privileges: ['portal:admin:createUser'], roleId: undefined, username: 'admin' } as never;
const publisherGiver = { role: 'org_publisher', privileges: ['portal:publisher:publishFeatures', 'portal:user:createItem'] } as never;
const ctx = (existing: string[] = [], giver = admin, customRoles?: RoleRecord[]) => ({
  giver,
  customRoles,
  existing: new Map<string, PortalUser | null>(existing.map((u) => [u, { username: u } as PortalUser])),
});

describe('parseCsv', () => {
  it('reads quoted fields with separators, doubled quotes and line breaks, and keeps each row’s first line', () => {
    const text = '\uFEFFUsername,Note\r\n"ann_1","a, ""b"""\r\n\r\n"bob_2","two\nlines"\ncat_3,plain';
    expect(parseCsv(text)).toEqual({
      rows: [
        { line: 1, cells: ['Username', 'Note'] },
        { line: 2, cells: ['ann_1', 'a, "b"'] },
        { line: 4, cells: ['bob_2', 'two\nlines'] },
        { line: 6, cells: ['cat_3', 'plain'] },
      ],
      unterminatedQuote: false,
    });
  });

  it('takes the separator of the header (semicolons, tabs) and notices an unclosed quote', () => {
    expect(parseCsv('a;b\n1;"2,3"').rows[1].cells).toEqual(['1', '2,3']);
    expect(parseCsv('a\tb\n1\t2').rows[1].cells).toEqual(['1', '2']);
    expect(parseCsv('a,b\n"1,2').unterminatedQuote).toBe(true);
  });
});

describe('planMembersCsv', () => {
  const header = 'User name,E-mail,Password,First name,Last name,Role,User type';
  const plan = (lines: string[], c = ctx()) => planMembersCsv(parseCsv([header, ...lines].join('\n')), c);

  it('accepts a good row and sends what createUser takes (role and user type by name or value)', () => {
    const result = plan(['nina_new,nina@example.com,Sturdy.Pass.91,Nina,New,Publisher,Creator', 'olga_new,olga@example.com,Sturdy.Pass.92,,,org_user,viewer']);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows[0].problems).toEqual([]);
    expect(result.rows[0].params).toMatchObject({ username: 'nina_new', role: 'org_publisher', userLicenseTypeId: 'creatorUT', firstname: 'Nina' });
    // A User role with the Viewer user type: not allowed (the Viewer type only views).
    expect(result.rows[1].problems).toEqual([expect.stringMatching(/Viewer/)]);
    expect(result.rows[1].params).toBeUndefined();
  });

  it('lists every problem of a row: missing, invalid, duplicate, existing, unknown role and type, role the giver may not give', () => {
    const result = plan(
      [
        ',,,A,B,,', // line 2: all three required values missing
        'x!bad_name,not-an-email,short,,,,', // line 3: invalid username, email and password
        'dup_user,dup@example.com,Sturdy.Pass.93,,,,',
        'DUP_USER,dup@example.com,Sturdy.Pass.94,,,,', // line 5: same username and email as line 4
        'publisher1,p1@example.com,Sturdy.Pass.95,,,,', // line 6: already a member
        'role_odd,r@example.com,Sturdy.Pass.96,,,Wizard,Astronaut', // line 7
        'admin_new,a@example.com,Sturdy.Pass.97,,,Administrator,Creator', // line 8: a publisher may not make administrators
      ],
      ctx(['publisher1'], publisherGiver),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const problems = Object.fromEntries(result.rows.map((r) => [r.line, r.problems]));
    expect(problems[2]).toEqual(['Username is missing', 'Email is missing', 'Password is missing']);
    expect(problems[3]).toEqual([
      expect.stringMatching(/^Username may contain only/),
      'Email must be a valid email address',
      expect.stringMatching(/^Password must be at least 8/),
    ]);
    expect(problems[4]).toEqual([]);
    expect(problems[5]).toEqual(['Username is also on line 4', 'Email is also on line 4']);
    expect(problems[6]).toEqual(['Already a member']);
    expect(problems[7]).toEqual(['Unknown role “Wizard”', 'Unknown user type “Astronaut”']);
    expect(problems[8]).toHaveLength(1);
    expect(problems[8][0]).toMatch(/administrator/i);
  });

  it('refuses a file without the required columns, an empty one and one past the row cap', () => {
    expect(planMembersCsv(parseCsv('Name,Email\nann,a@example.com'), ctx())).toEqual({
      ok: false,
      error: expect.stringContaining('missing: username, password'),
    });
    expect(planMembersCsv(parseCsv(''), ctx())).toEqual({ ok: false, error: 'The file is empty.' });
    const many = [header, ...Array.from({ length: CSV_MAX_ROWS + 1 }, (_, i) => `user_${i},u${i}@example.com,Sturdy.Pass.${i}`)].join('\n');
    expect(planMembersCsv(parseCsv(many), ctx())).toEqual({
      ok: false,
      error: `The file has ${CSV_MAX_ROWS + 1} members; at most ${CSV_MAX_ROWS} can be added from one file.`,
    });
    expect(csvUsernames(parseCsv(many))).toEqual([]);
    expect(csvUsernames(parseCsv(`${header}\nann_1,a\nANN_1,b\nbob_2,c`))).toEqual(['ann_1', 'ANN_1', 'bob_2']);
  });
});
