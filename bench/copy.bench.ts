/**
 * Copy benchmark (issue 38): a group of BENCH_COPY_ITEMS items (default 200: CSV layers with a file
 * each, web maps using one or two of them by item id, and one app showing the first map) copied from
 * the demo organization (publisher1) to the Partner Organization (partner_admin) on the real local
 * portal (a fresh embedded database, over HTTP on loopback):
 *
 * - by the console's own copy modules (src/client/features/copy: planCopy then applyPlan, keeping
 *   its progress after each step in an in-memory localStorage), run in Node as the browser runs them;
 * - by Esri's solution.js 1.7.0 (test/solution's pinned packages: createSolution from the group,
 *   then deploySolution into the partner organization), driven as test/solution drives it.
 *
 * Prints both times and their ratio (console ÷ solution.js; the goal is ≤ 1.0), with the
 * machine's load average. solution.js needs `npm ci --prefix test/solution --ignore-scripts`;
 * without it only the console's figure is printed.
 * Usage: npm run bench:copy   (BENCH_COPY_ITEMS=20 for a smaller group; BENCH_COPY_SOLUTION=off to time
 * the console alone, e.g. to compare its per-item time at two sizes)
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { applyPlan } from '../src/client/features/copy/apply.ts';
import { planCopy } from '../src/client/features/copy/plan.ts';
import { getItem, type PortalConnection } from '../src/client/features/copy/portal.ts';
import { emptyProgress, keepCopy } from '../src/client/features/copy/progress.ts';
import { DEMO_PASSWORD, startService } from '../test/support/service.ts';
import { freshDataDir } from './lib.ts';

const ITEMS = Number(process.env.BENCH_COPY_ITEMS ?? 200);

/** The browser's localStorage, in memory: the copy keeps its progress there after each step, as the console does. */
function memoryStorage(): Storage {
  const kept = new Map<string, string>();
  return {
    getItem: (k) => kept.get(k) ?? null,
    setItem: (k, v) => void kept.set(k, String(v)),
    removeItem: (k) => void kept.delete(k),
    clear: () => kept.clear(),
    key: (i) => [...kept.keys()][i] ?? null,
    get length() {
      return kept.size;
    },
  };
}
globalThis.localStorage ??= memoryStorage();
const LAYERS = Math.floor(ITEMS / 2);
const MAPS = ITEMS - LAYERS - 1;

const svc = await startService({ config: { dataDir: freshDataDir() } });
const rest = await svc.listen();
const publisherToken = await svc.tokenFor('publisher1');
const partnerToken = await svc.tokenFor('partner_admin');

async function call(path: string, fields: Record<string, string | Blob | [Blob, string]>, token = publisherToken): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('f', 'json');
  form.set('token', token);
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) form.set(k, v[0], v[1]);
    else form.set(k, v);
  }
  const body = (await (await fetch(`${rest}/${path}`, { method: 'POST', body: form })).json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

/** The source group and its items, made over HTTP. */
async function buildGroup(): Promise<{ groupId: string; ids: string[] }> {
  const groupId = ((await call('community/createGroup', { title: `Copy bench ${Date.now()}`, access: 'org', tags: 'bench' })).group as { id: string }).id;
  const add = async (fields: Record<string, string | [Blob, string]>) => (await call('content/users/publisher1/addItem', fields)).id as string;
  const layers: string[] = [];
  for (let i = 0; i < LAYERS; i++) {
    const csv = new Blob([`name,lat,lon\nplace ${i},${i % 80},${i % 170}\n`], { type: 'text/csv' });
    layers.push(await add({ title: `Layer ${i}`, type: 'CSV', tags: 'bench', file: [csv, `layer${i}.csv`] }));
  }
  const maps: string[] = [];
  for (let i = 0; i < MAPS; i++) {
    const used = [layers[i % LAYERS], layers[(i * 7 + 3) % LAYERS]].filter((v, j, a) => a.indexOf(v) === j);
    const data = {
      operationalLayers: used.map((id, j) => ({ id: `l${j}`, title: `Layer ${j}`, layerType: 'CSV', itemId: id, url: `${rest}/content/items/${id}/data` })),
      baseMap: { baseMapLayers: [], title: 'None' },
      spatialReference: { wkid: 102100, latestWkid: 3857 },
      version: '2.24',
    };
    maps.push(
      await add({ title: `Map ${i}`, type: 'Web Map', typeKeywords: 'Web Map,Explorer Web Map,Map,Online Map', tags: 'bench', text: JSON.stringify(data) }),
    );
  }
  const app = await add({
    title: 'App',
    type: 'Web Mapping Application',
    typeKeywords: 'JavaScript,Map,Mapping Site,Online Map,Ready To Use,WAB2D,Web AppBuilder,Web Map',
    tags: 'bench',
    text: JSON.stringify({ values: { webmap: maps[0] }, source: 'template' }),
  });
  const ids = [...layers, ...maps, app];
  for (let i = 0; i < ids.length; i += 100) await call('content/users/publisher1/shareItems', { items: ids.slice(i, i + 100).join(','), groups: groupId });
  return { groupId, ids };
}

const conn = (username: string, token: string, orgId: string): PortalConnection => ({ portalUrl: rest, token, username, orgId, label: username });

async function consoleCopy(ids: readonly string[]): Promise<number> {
  const source = conn('publisher1', publisherToken, svc.orgId);
  const target = conn('partner_admin', partnerToken, svc.partnerOrgId);
  const started = performance.now();
  const items = [];
  for (const id of ids) items.push(await getItem(source, id));
  const plan = await planCopy(source, target, items);
  const planned = performance.now();
  const progress = emptyProgress();
  const result = await applyPlan(plan, source, target, { progress, onSave: keepCopy(source, target, plan, progress) });
  const ms = performance.now() - started;
  console.log(
    `  console: reading the items and planning ${((planned - started) / 1000).toFixed(2)} s, applying ${((ms - (planned - started)) / 1000).toFixed(2)} s`,
  );
  if (result.items.length !== ids.length) throw new Error(`the console copied ${result.items.length} of ${ids.length}`);
  return ms;
}

/** solution.js from test/solution's own packages, or why it cannot run. */
async function solutionCopy(groupId: string, ids: readonly string[]): Promise<number | string> {
  const pkg = new URL('../test/solution/package.json', import.meta.url);
  if (!existsSync(new URL('node_modules/@esri/solution-deployer', pkg)))
    return 'test/solution/node_modules is missing (npm ci --prefix test/solution --ignore-scripts)';
  const need = createRequire(pkg);
  const load = (name: string) => import(pathToFileURL(need.resolve(name)).href) as Promise<Record<string, unknown>>;
  await import(new URL('../test/solution/browserShims.mjs', import.meta.url).href);
  const { leaveOutPlaceholderIds } = (await import(new URL('../test/solution/idRule.mjs', import.meta.url).href)) as { leaveOutPlaceholderIds: () => void };
  leaveOutPlaceholderIds();
  const { UserSession } = (await load('@esri/arcgis-rest-auth')) as { UserSession: new (o: object) => unknown };
  const { createSolution } = (await load('@esri/solution-creator')) as { createSolution: (g: string, a: unknown, b: unknown) => Promise<string> };
  const { deploySolution } = (await load('@esri/solution-deployer')) as { deploySolution: (id: string, s: unknown) => Promise<string> };
  const publisher = new UserSession({ username: 'publisher1', password: DEMO_PASSWORD, portal: rest });
  const partner = new UserSession({ username: 'partner_admin', password: DEMO_PASSWORD, portal: rest });
  const started = performance.now();
  const solutionId = await createSolution(groupId, publisher, publisher);
  await call(`content/users/publisher1/items/${solutionId}/share`, { everyone: 'true' });
  const deployedId = await deploySolution(solutionId, partner);
  const ms = performance.now() - started;
  const deployed = (await (await fetch(`${rest}/content/items/${deployedId}/data?f=json&token=${partnerToken}`)).json()) as { templates?: unknown[] };
  if (deployed.templates?.length !== ids.length)
    return `solution.js deployed ${deployed.templates?.length ?? 0} of ${ids.length} templates in ${(ms / 1000).toFixed(1)} s`;
  return ms;
}

const load0 = loadavg()[0];
console.log(`Building ${ITEMS} items (${LAYERS} CSV layers, ${MAPS} web maps, 1 app) in a group…`);
const { groupId, ids } = await buildGroup();
const consoleMs = await consoleCopy(ids);
console.log(`console copy (plan + apply): ${(consoleMs / 1000).toFixed(2)} s for ${ids.length} items, ${(consoleMs / ids.length).toFixed(0)} ms an item`);
let solution: number | string;
try {
  solution = process.env.BENCH_COPY_SOLUTION === 'off' ? 'BENCH_COPY_SOLUTION=off' : await solutionCopy(groupId, ids);
} catch (err) {
  solution = `solution.js failed: ${err instanceof Error ? err.message : JSON.stringify(err)}`.slice(0, 600);
}
if (typeof solution === 'number') {
  console.log(`solution.js (createSolution + deploySolution): ${(solution / 1000).toFixed(2)} s`);
  console.log(`ratio console ÷ solution.js: ${(consoleMs / solution).toFixed(2)} (goal ≤ 1.0)`);
} else {
  console.log(`solution.js: no figure — ${solution}`);
}
console.log(`load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}`);
await svc.close();
