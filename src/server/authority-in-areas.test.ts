/**
 * Services do not decide an authority themselves (issue 36): what an operation's declared authority
 * lets the caller reach is worked out by the wrapper and handed to the handler (`ctx.reach`,
 * http/reach.ts), or decided on a loaded target (http/target.ts). An area calling the table itself
 * (`grantsOthers`, `authorityGrants`) fails here. Where an operation applies another operation's
 * declaration (every read of an item asks who sees it), it calls the rule by name from
 * http/policies.ts, which reads that declaration.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const AREAS = join(ROOT, 'src/server/areas');

const TABLE_CALL = /\b(?:grantsOthers|authorityGrants)\(/;

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
  it('no area calls grantsOthers or authorityGrants', () => {
    expect(callers()).toEqual([]);
  });
});
