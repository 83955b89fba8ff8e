/**
 * Accessibility: axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on every page, dialog, drawer and menu
 * of e2e/a11y-targets.ts, in the light and the dark colour scheme; the run fails on any serious or
 * critical violation and prints each with its rule, target and summary. Then reflow: the main pages
 * at 320 CSS px wide must not scroll sideways as a whole (WCAG 1.4.10; tables scroll in their own region).
 *
 * `npm run build && npx playwright test e2e/a11y.spec.ts` (or a build of one's own: `npx vite build --outDir
 * /tmp/console-a11y --emptyOutDir && CONSOLE_DIR=/tmp/console-a11y npx playwright test e2e/a11y.spec.ts`)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { A11Y_TARGETS, type A11yContext, type A11yTarget } from './a11y-targets.ts';
import { DEMO_PASSWORD } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

test.describe.configure({ mode: 'serial' });
// A target that cannot be opened fails its step in seconds instead of waiting out the test.
test.use({ actionTimeout: 15_000 });

/** Signs in with the password form (given time: the check runs beside other work on small machines). */
async function signIn(page: Page, username: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout: 20_000 });
}

let receiver: http.Server;
const ctx: A11yContext = { webhookId: '', taskTitle: '', consoleClientId: '' };

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

async function check(page: Page, target: A11yTarget, scheme: string): Promise<Found[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => ({
    target: target.name,
    scheme,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
  }));
}

async function runAll(browser: Browser, scheme: 'light' | 'dark'): Promise<Found[]> {
  const context = await browser.newContext({ colorScheme: scheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const found: Found[] = [];
  let signedIn = false;
  await page.goto('/sign-in');
  // A11Y_ONLY=<text> checks only the targets whose name contains it (while fixing one place).
  const only = process.env.A11Y_ONLY;
  for (const target of [...A11Y_TARGETS].filter((t) => !only || t.name.includes(only)).sort((a, b) => (a.as === b.as ? 0 : a.as === 'anonymous' ? -1 : 1))) {
    await test.step(`${scheme}: ${target.name}`, async () => {
      if (target.as === 'admin' && !signedIn) {
        await signIn(page, 'admin');
        signedIn = true;
      }
      try {
        await target.open(page, ctx);
      } catch (e) {
        // Not opened is a failure too, but the others are still checked.
        found.push({ target: target.name, scheme, rule: 'could-not-open', impact: 'critical', help: String(e).split('\n')[0], nodes: [] });
        return;
      }
      // The console follows the system colour scheme until the member picks one.
      if (new URL(page.url()).pathname.startsWith('/sharing/') === false)
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      found.push(...(await check(page, target, scheme)));
    });
  }
  await context.close();
  return found;
}

function report(found: Found[]): string {
  const byRule = new Map<string, number>();
  for (const f of found) byRule.set(`${f.impact} ${f.rule}`, (byRule.get(`${f.impact} ${f.rule}`) ?? 0) + f.nodes.length);
  const lines = [...byRule].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n}\t${k}`);
  for (const f of found.filter((x) => BLOCKING.has(x.impact))) {
    lines.push(`\n[${f.impact}] ${f.rule} — ${f.help} (${f.scheme}: ${f.target})`);
    for (const n of f.nodes.slice(0, 8)) lines.push(`  ${n.target}\n    ${n.summary.replace(/\n/g, '\n    ')}`);
    if (f.nodes.length > 8) lines.push(`  … and ${f.nodes.length - 8} more`);
  }
  return lines.join('\n');
}

for (const scheme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations on any page, dialog or menu (${scheme})`, async ({ browser }) => {
    test.setTimeout(900_000);
    const found = await runAll(browser, scheme);
    const text = report(found);
    if (found.length) console.log(`axe, ${scheme} (elements by impact and rule):\n${text}`);
    expect(
      found.filter((f) => BLOCKING.has(f.impact)),
      text,
    ).toEqual([]);
  });
}

test('the main pages reflow at 320 CSS px without scrolling the whole page sideways', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const wide: string[] = [];
  await page.goto('/sign-in');
  let signedIn = false;
  for (const target of A11Y_TARGETS.filter((t) => t.reflow).sort((a, b) => (a.as === b.as ? 0 : a.as === 'anonymous' ? -1 : 1))) {
    await test.step(`320 px: ${target.name}`, async () => {
      if (target.as === 'admin' && !signedIn) {
        await signIn(page, 'admin');
        signedIn = true;
      }
      await target.open(page, ctx);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      if (scrollWidth > clientWidth) wide.push(`${target.name}: ${scrollWidth} px wide in ${clientWidth} px`);
    });
  }
  await context.close();
  expect(wide).toEqual([]);
});
