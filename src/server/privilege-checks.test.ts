/**
 * No service decides a privilege by hand (issue 36): who may act on what another member owns is the
 * operation's declared authority, decided before its handler runs (http/operation.ts, http/target.ts);
 * every other privilege rule is a named function in http/policies.ts, the one module that reads a
 * privilege set. A new `caller.privileges.has(…)` or `requirePrivilege(…)` anywhere else in
 * src/server (tests aside) fails here, so a rule cannot be stated a second time beside its home.
 * What a declaration asks of the owner (ownerNeeds) is decided by named functions there too
 * (requireOwnerNeeds, holdsOwnerNeeds), for the wrapper, the upload intake and an item's change check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'src/server');

/** A privilege set read directly, or the generic check called instead of a named rule. */
const HAND_CHECK = /\bprivileges\.has\(|\b(?:requirePrivilege|hasPrivilege)\(/g;

/** The policy module is the home: nothing in it counts. */
const HOME = 'src/server/http/policies.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test(-support)?\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Each hand check outside its homes, as `file:line  text`, by file. */
function handChecks(files: { file: string; text: string }[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { file, text } of files) {
    if (file === HOME) continue;
    text.split('\n').forEach((line, i) => {
      const hits = [...line.matchAll(HAND_CHECK)].length;
      if (hits) found.set(file, [...(found.get(file) ?? []), ...Array<string>(hits).fill(`${file}:${i + 1}  ${line.trim()}`)]);
    });
  }
  return found;
}

const serverSources = () => sourceFiles(SERVER).map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));

describe('privilege checks have one home', () => {
  it('no file outside http/policies.ts reads a privilege set or calls the generic check', () => {
    expect([...handChecks(serverSources()).values()].flat()).toEqual([]);
  });

  it('finds a hand check written in a service, a route and the wrapper', () => {
    const found = handChecks([
      { file: 'src/server/areas/groups/service.ts', text: "if (!caller.privileges.has('portal:user:createGroup')) throw forbidden('…');" },
      { file: 'src/server/areas/tasks/service.ts', text: "requirePrivilege(caller, 'portal:user:createItem');" },
      { file: 'src/server/http/target.ts', text: 'if (!caller.privileges.has(ownerNeeds)) throw forbidden(…);\nrequirePrivilege(caller, ownerNeeds);' },
      { file: 'src/server/http/policies.ts', text: "export const seesOrgGroups = (c) => c.privileges.has('portal:user:viewOrgGroups');" },
    ]);
    expect([...found.keys()]).toEqual(['src/server/areas/groups/service.ts', 'src/server/areas/tasks/service.ts', 'src/server/http/target.ts']);
    expect(found.get('src/server/http/target.ts')).toEqual([
      'src/server/http/target.ts:1  if (!caller.privileges.has(ownerNeeds)) throw forbidden(…);',
      'src/server/http/target.ts:2  requirePrivilege(caller, ownerNeeds);',
    ]);
  });
});
