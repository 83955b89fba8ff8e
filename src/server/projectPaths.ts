/**
 * Where the service finds its files (migrations, the built console, the database template, the demo
 * hashes), from the project's root: the nearest folder above this module holding package.json. The
 * same answer whether the service runs from its sources (src/server/…) or from the bundle `npm start`
 * builds (dist/server/main.cjs, scripts/build-server.ts), which a path relative to the module would not give.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const projectPath = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
