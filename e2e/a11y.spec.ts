/**
 * Accessibility: axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on every page, dialog, drawer and menu
 * of e2e/a11y-targets.ts, in the light scheme and (the rules that read colours) the dark one; the run fails on any serious or
 * critical violation and prints each with its rule, target and summary. Reflow (WCAG 1.4.10): every
 * page of the list (a target with no dialog or menu open) at 320 CSS px wide and at 640 × 400 CSS px
 * (1280 × 800 at 200 % zoom) must not scroll sideways as a whole; wide tables scroll in a region of
 * their own.
 *
 * Part of `npm run test:e2e`; alone: `npm run test:a11y`, or with a build of one's own:
 * `npx vite build --outDir /tmp/console-a11y --emptyOutDir && CONSOLE_DIR=/tmp/console-a11y npx playwright test e2e/a11y.spec.ts`
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Browser, type Page } from '@playwright/test';
import { axeFor, WCAG_TAGS } from './axe.ts';
import { A11Y_TARGETS, type A11yContext, type A11yTarget } from './a11y-targets.ts';
import { DEMO_PASSWORD } from './support.ts';
import { test } from './test.ts';

const BLOCKING = new Set(['serious', 'critical']);
/**
 * The rules of those tags that read colours (axe's category cat.color). A page's elements, names and
 * roles are the same in both schemes: the light pass runs every rule, the dark pass these only.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

test.describe.configure({ mode: 'serial' });
// A target that cannot be opened fails its step in seconds instead of waiting out the test.
test.use({ actionTimeout: 15_000 });
// The run prints each violation with its rule, element and summary; a trace of its hundreds of steps
// would double its time.
test.use({ trace: 'off' });

/** Signs in with the password form (given time: the check runs beside other work on small machines). */
async function signIn(page: Page, username: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout: 20_000 });
}

let receiver: http.Server;
const ctx: A11yContext = { webhookId: '', taskTitle: '', consoleClientId: '', dependentMapId: '', fileItemId: '' };

/** A webhook with one delivery and a task with one run, so their drawers have something to show. */
test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/a11y`;

  const page = await browser.newPage();
  const tag = Date.now().toString(36);
  ctx.consoleClientId = (await (await page.request.get('/console-config.json')).json()).oauth?.clientId;
  expect(ctx.consoleClientId, '/console-config.json names the console app (DEMO_DATA=on)').toBeTruthy();
  await signIn(page, 'admin');

  await page.goto('/webhooks');
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const form = page.getByRole('dialog', { name: 'Create webhook' });
  await form.getByRole('textbox', { name: 'Name' }).fill(`A11y feed ${tag}`);
  await form.getByRole('textbox', { name: 'Payload URL' }).fill(receiverUrl);
  await form.getByRole('checkbox', { name: 'All items events' }).check();
  await form.getByRole('button', { name: 'Generate' }).click();
  await form.getByRole('button', { name: 'Create webhook' }).click();
  await page.getByRole('dialog', { name: 'Webhook created' }).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `A11y feed ${tag}` })).toBeVisible();
  ctx.webhookId = page.url().split('/').pop()!;
  const token = (await (await page.request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json())
    .token;
  await page.request.post('/sharing/rest/content/users/admin/addItem', { form: { f: 'json', token, title: `A11y map ${tag}`, type: 'Web Map', text: '{}' } });
  // A layer used by a map used by an app: the dependencies tab and the organization view show a tree and rows.
  const add = async (form: Record<string, string>) =>
    (await (await page.request.post('/sharing/rest/content/users/admin/addItem', { form: { f: 'json', token, ...form } })).json()).id as string;
  const layerId = await add({ title: `A11y layer ${tag}`, type: 'Feature Service', url: 'http://127.0.0.1:9/arcgis/rest/services/A11y/FeatureServer' });
  ctx.dependentMapId = await add({
    title: `A11y map of the layer ${tag}`,
    type: 'Web Map',
    text: JSON.stringify({
      operationalLayers: [
        { id: 'a11y', layerType: 'ArcGISFeatureLayer', itemId: layerId, url: 'http://127.0.0.1:9/arcgis/rest/services/A11y/FeatureServer/0' },
      ],
    }),
  });
  await add({ title: `A11y app ${tag}`, type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: ctx.dependentMapId } }) });
  const csv = await page.request.post('/sharing/rest/content/users/admin/addItem', {
    multipart: {
      f: 'json',
      token,
      title: `A11y CSV ${tag}`,
      type: 'CSV',
      file: { name: 'a11y.csv', mimeType: 'text/csv', buffer: Buffer.from('id,name\n1,a\n') },
    },
  });
  ctx.fileItemId = (await csv.json()).id as string;
  expect(ctx.fileItemId, 'the CSV item for the data tab').toBeTruthy();
  // The demo organization has no group of the administrator's and only built-in roles (which cannot
  // be deleted): one of each, so the group page and the delete confirmations can be opened.
  for (const [path, form] of [
    ['/sharing/rest/community/createGroup', { title: `A11y group ${tag}` }],
    ['/sharing/rest/portals/self/createRole', { name: `A11y role ${tag}` }],
  ] as const) {
    const made = await (await page.request.post(path, { form: { f: 'json', token, ...form } })).json();
    expect(made.error, `${path}: ${JSON.stringify(made)}`).toBeUndefined();
  }

  ctx.taskTitle = `A11y report ${tag}`;
  await page.goto('/tasks');
  await page.getByRole('button', { name: 'New task' }).click();
  const task = page.getByRole('dialog', { name: 'New scheduled task' });
  await task.getByRole('textbox', { name: 'Title', exact: true }).fill(ctx.taskTitle);
  await task.getByRole('button', { name: 'Create task' }).click();
  await expect(task).toBeHidden();
  await page.getByRole('button', { name: `Actions for ${ctx.taskTitle}` }).click();
  await page.getByRole('menuitem', { name: 'Run now' }).click();
  await page.close();
});

test.afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

interface Found {
  target: string;
  scheme: string;
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

async function check(page: Page, target: A11yTarget, scheme: (typeof SCHEMES)[number]): Promise<Found[]> {
  const axe = await axeFor(page);
  const result = await (scheme === 'light' ? axe.withTags(WCAG_TAGS) : axe.withRules(COLOUR_RULES)).analyze();
  return result.violations.map((v) => ({
    target: target.name,
    scheme,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
  }));
}

const SCHEMES = ['light', 'dark'] as const;
const DESKTOP = { width: 1280, height: 900 };
/** WCAG 1.4.10: 320 CSS px wide, and a 1280 × 800 window at 200 % zoom (640 × 400 CSS px). */
const REFLOW_VIEWPORTS = [
  { width: 320, height: 800, name: '320 px' },
  { width: 640, height: 400, name: '1280 px at 200 %' },
];

/** Switches the system colour scheme, which the console follows until the member picks one. */
async function useScheme(page: Page, scheme: (typeof SCHEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  if (new URL(page.url()).pathname.startsWith('/sharing/')) return; // the portal's own pages: CSS only
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  await settle(page);
}

/** Until CSS transitions end: colours fade (axe must read the final ones), the app shell slides its navigation. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'), undefined, {
    timeout: 5_000,
  });
}

/**
 * Whether the whole page scrolls sideways, and tables wider than the window that no region of
 * their own scrolls (they would be cut off or push the page).
 */
async function reflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const out: string[] = [];
    if (root.scrollWidth > root.clientWidth + 1) out.push(`the page is ${root.scrollWidth} px wide in ${root.clientWidth} px`);
    for (const table of document.querySelectorAll('table')) {
      if (table.getBoundingClientRect().width <= root.clientWidth + 1) continue;
      let scroller: Element | null = table.parentElement;
      while (scroller && scroller !== document.body && !/auto|scroll/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (!scroller || scroller === document.body)
        out.push(`table "${table.getAttribute('aria-label') ?? table.caption?.textContent ?? ''}" is wider than the window and has no scrolling region`);
    }
    return out;
  });
}

/**
 * One pass over the targets in one signed-in page: each is opened once and checked by axe in both
 * schemes; each page (nothing opened over it) is then also laid out at the reflow sizes. Opening
 * every target once, without a new context per scheme, halves the run. A target is opened in the
 * scheme the one before it ended in (light, dark, then dark, light, …): every switch restyles the
 * whole page, and switching back to light before each target was one switch in three.
 */
async function sweep(browser: Browser): Promise<{ found: Found[]; wide: string[]; pages: number }> {
  const context = await browser.newContext({ colorScheme: 'light', reducedMotion: 'reduce', viewport: DESKTOP });
  const page = await context.newPage();
  const found: Found[] = [];
  const wide: string[] = [];
  let pages = 0;
  let signedIn = false;
  let schemes: (typeof SCHEMES)[number][] = [...SCHEMES];
  await page.goto('/sign-in');
  // A11Y_ONLY=<text> checks only the targets whose name contains it (while fixing one place).
  const only = process.env.A11Y_ONLY;
  const targets = A11Y_TARGETS.filter((t) => !only || t.name.includes(only)).sort((a, b) => (a.as === b.as ? 0 : a.as === 'anonymous' ? -1 : 1));
  for (const target of targets) {
    await test.step(target.name, async () => {
      if (target.as === 'admin' && !signedIn) {
        await signIn(page, 'admin');
        signedIn = true;
      }
      try {
        await useScheme(page, schemes[0]);
        await target.open(page, ctx);
      } catch (e) {
        // Not opened is a failure too, but the others are still checked.
        found.push({ target: target.name, scheme: '-', rule: 'could-not-open', impact: 'critical', help: String(e).split('\n')[0], nodes: [] });
        return;
      }
      for (const scheme of schemes) {
        await useScheme(page, scheme);
        found.push(...(await check(page, target, scheme)));
      }
      schemes = [schemes[1], schemes[0]];
      // A page is what is left with no dialog or menu open over it: every page is laid out narrow.
      if ((await page.getByRole('dialog').count()) + (await page.getByRole('menu').count()) > 0) return;
      pages++;
      for (const size of REFLOW_VIEWPORTS) {
        await page.setViewportSize(size);
        await settle(page);
        for (const problem of await reflowProblems(page)) wide.push(`${target.name} at ${size.name}: ${problem}`);
      }
      await page.setViewportSize(DESKTOP);
    });
  }
  await context.close();
  return { found, wide, pages };
}

function report(found: Found[]): string {
  const byRule = new Map<string, number>();
  for (const f of found) byRule.set(`${f.scheme} ${f.impact} ${f.rule}`, (byRule.get(`${f.scheme} ${f.impact} ${f.rule}`) ?? 0) + f.nodes.length);
  const lines = [...byRule].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n}\t${k}`);
  for (const f of found.filter((x) => BLOCKING.has(x.impact))) {
    lines.push(`\n[${f.impact}] ${f.rule} — ${f.help} (${f.scheme}: ${f.target})`);
    for (const n of f.nodes.slice(0, 8)) lines.push(`  ${n.target}\n    ${n.summary.replace(/\n/g, '\n    ')}`);
    if (f.nodes.length > 8) lines.push(`  … and ${f.nodes.length - 8} more`);
  }
  return lines.join('\n');
}

test('every page, dialog and menu: no serious or critical axe violation in light and dark; every page reflows at 320 px and 200 % zoom', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const { found, wide, pages } = await sweep(browser);
  const text = report(found);
  if (found.length) console.log(`axe (elements by scheme, impact and rule):\n${text}`);
  expect
    .soft(
      found.filter((f) => BLOCKING.has(f.impact)),
      text,
    )
    .toEqual([]);
  expect.soft(wide, 'pages that scroll sideways as a whole, or tables without a scrolling region of their own').toEqual([]);
  if (!process.env.A11Y_ONLY) expect(pages, 'pages laid out at the reflow sizes').toBeGreaterThanOrEqual(15);
});
