/**
 * Services do not decide an authority themselves (issue 36): what an operation's declared authority
 * lets the caller reach is worked out by the wrapper and handed to the handler (`ctx.reach`,
 * http/reach.ts), or decided on a loaded target (http/target.ts). An area calling the table itself
 * (`grantsOthers`, `authorityGrants`) fails here, except the places listed below, each of which
 * applies a declaration other than its operation's own (docs/architecture.md says why). The list
 * only shrinks: a listed file that no longer calls the table fails too, so it is taken off.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const AREAS = join(ROOT, 'src/server/areas');

const TABLE_CALL = /\b(?:grantsOthers|authorityGrants)\(/;

/** Where a declaration other than the operation's own is still applied in the service (docs/architecture.md). */
const STILL_DECIDING = new Set([
  // Who sees an item (ITEM_OPERATIONS.item), asked before the operation's own decision by every operation that reads one.
  'src/server/areas/items/access.ts',
  // The same rule in SQL, for the items a dependency walk meets.
  'src/server/areas/dependencies/nodes.ts',
  // Who sees a group (GROUP_OPERATIONS.group), asked by every operation that reads one.
  'src/server/areas/groups/visible.ts',
  // unshareItem's authority inside share and unshare; userContent's for the bulk path's member.
  'src/server/areas/items/sharing.ts',
  // addGroupUsers' authority for the groups a default names.
  'src/server/areas/userDefaultSettings/service.ts',
  // searchItems' authority, also applied by group content search (declared otherwise).
  'src/server/areas/items/search.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test(-support)?\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const callers = () =>
  sourceFiles(AREAS)
    .map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
    .filter(({ text }) => TABLE_CALL.test(text))
    .map(({ file }) => file)
    .sort();

describe('areas take what the declaration reaches from the wrapper', () => {
  it('no area calls grantsOthers or authorityGrants outside the listed places', () => {
    expect(callers().filter((f) => !STILL_DECIDING.has(f))).toEqual([]);
  });

  it('every listed place still calls the table (take it off the list once it does not)', () => {
    const found = new Set(callers());
    expect([...STILL_DECIDING].filter((f) => !found.has(f))).toEqual([]);
  });
});
