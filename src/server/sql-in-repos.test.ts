/**
 * SQL lives in an area's repository (issue 36): routes declare, the service orchestrates, and only
 * `repo.ts` (or a `repo/` folder) runs statements. A database call (`.query(`, `.queryPrepared(`,
 * `db.exec(`) or an SQL string written in any other file of src/server (tests aside) fails here, so a
 * statement cannot drift back beside the rules that use it. The runners in jobs/, request handling in
 * http/, core/ and the seed call areas' services for their rows too; only store/ (the database
 * adapters, migrations and the outbox, below every area) writes SQL outside a repository.
 *
 * PENDING lists the files not yet converted, each with how many SQL sites it may still hold (a
 * database call, or an SQL string not passed straight to one): a count can only go down, and a file
 * leaves the list when its SQL has moved to its repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'src/server');
/** store/ is the one place below the areas that may run SQL of its own. */
const STORE = join(SERVER, 'store');

// Empty: every statement is in a repository or the store. A file may be listed here again only
// while a change that moves its SQL is under way.
const PENDING: Record<string, number> = {};

/** A repository: the area's `repo.ts`, or any file in its `repo/` folder. */
const isRepo = (file: string) => /\/repo\.ts$/.test(file) || /\/repo\//.test(file);

/** A statement run on a database handle (a RegExp's `.exec(` is not one: only db/q/tx's). */
const DB_CALL = /\.(?:query|queryPrepared)\s*(?:<[^>()]*>)?\(|\b(?:db|q|tx)\.exec\(/g;
/** A string that opens with an SQL statement. */
const SQL_STRING = /[`'"]\s*(?:SELECT|INSERT\s+INTO|UPDATE\s+\w+|DELETE\s+FROM|WITH\s+\w+\s+AS)\b/g;
/** An SQL string passed straight to a database call is one site with it, not two. */
const OPENS_CALL = /\.(?:query|queryPrepared|exec)\s*(?:<[^>()]*>)?\(\s*(?:\w+,\s*)?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === STORE ? [] : sourceFiles(path);
    return /\.ts$/.test(e.name) && !/\.test(-support)?\.ts$/.test(e.name) ? [path] : [];
  });
}

/** Each SQL site in `text`, as `file:line  text`. */
function sqlSites(file: string, text: string): string[] {
  const offsets = [...text.matchAll(DB_CALL)].map((m) => m.index);
  for (const m of text.matchAll(SQL_STRING)) {
    if (!OPENS_CALL.test(text.slice(Math.max(0, m.index - 80), m.index))) offsets.push(m.index);
  }
  const lines = text.split('\n');
  return offsets
    .sort((a, b) => a - b)
    .map((at) => {
      const line = text.slice(0, at).split('\n').length;
      return `${file}:${line}  ${lines[line - 1].trim()}`;
    });
}

/** The SQL sites of every non-repository file, by file. */
function sitesOutsideRepos(files: { file: string; text: string }[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { file, text } of files) {
    if (isRepo(file)) continue;
    const sites = sqlSites(file, text);
    if (sites.length) found.set(file, sites);
  }
  return found;
}

const serverSources = () => sourceFiles(SERVER).map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));

describe('SQL lives in repositories', () => {
  it('no file of src/server outside a repository or the store runs SQL (pending files at most their count)', () => {
    const over = [...sitesOutsideRepos(serverSources())].filter(([file, sites]) => sites.length > (PENDING[file] ?? 0)).flatMap(([, sites]) => sites);
    expect(over).toEqual([]);
  });

  it('lists each pending file at exactly what it still holds, so a move lowers the count with it', () => {
    const found = sitesOutsideRepos(serverSources());
    const held = Object.fromEntries(Object.keys(PENDING).map((file) => [file, found.get(file)?.length ?? 0]));
    expect(held).toEqual(PENDING);
  });

  it('finds SQL written in a route and a service, one site per statement, and none in a repository', () => {
    const found = sitesOutsideRepos([
      { file: 'src/server/areas/folders/routes.ts', text: "await q.query('SELECT 1 FROM folders WHERE id = $1', [id]);" },
      {
        file: 'src/server/areas/roles/service.ts',
        text: 'const SQL = `\n  DELETE FROM roles WHERE id = $1`;\nawait ctx.db.query(SQL, [id]);\nconst m = /x/.exec(s);',
      },
      { file: 'src/server/areas/roles/repo.ts', text: "await q.query('DELETE FROM roles WHERE id = $1', [id]);" },
      { file: 'src/server/areas/items/repo/search.ts', text: "await q.query('SELECT * FROM items');" },
    ]);
    expect([...found.keys()]).toEqual(['src/server/areas/folders/routes.ts', 'src/server/areas/roles/service.ts']);
    expect(found.get('src/server/areas/roles/service.ts')).toEqual([
      'src/server/areas/roles/service.ts:1  const SQL = `',
      'src/server/areas/roles/service.ts:3  await ctx.db.query(SQL, [id]);',
    ]);
  });
});
