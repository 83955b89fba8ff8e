/**
 * Phones (390×844, issue 25 item 9): no list page scrolls sideways and no table is wider than its
 * card (tables stack their rows), filters sit behind a "Filters" button until asked for, and the
 * webhook state reads whole. Screenshots of every list page, light and dark.
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, signInOncePerFile, snap } from './support.ts';
import { test } from './test.ts';

const PHONE = { width: 390, height: 844 };

const LIST_PAGES = [
  { path: '/content', heading: 'Content', filters: 'Filter content' },
  { path: '/members', heading: 'Members', filters: 'Filter members' },
  { path: '/groups', heading: 'Groups', filters: 'Filter groups' },
  { path: '/webhooks', heading: 'Webhooks' },
  { path: '/tasks', heading: /tasks/i },
  { path: '/activity', heading: 'Activity', filters: 'Activity filters' },
  { path: '/collaborations', heading: 'Collaborations' },
  { path: '/settings', heading: 'Settings' },
  { path: '/roles', heading: 'Roles' },
] as const;

/** How far the page and each table stick out: the page past the window, a table past its card. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement!;
    const tables = [...document.querySelectorAll('main table')].map((t) => {
      const card = t.closest('.mantine-Paper-root') ?? t.parentElement!;
      return {
        name: t.getAttribute('aria-label') ?? '',
        table: Math.ceil(t.getBoundingClientRect().width),
        card: Math.ceil(card.getBoundingClientRect().width),
      };
    });
    return { page: { scroll: doc.scrollWidth, client: doc.clientWidth }, wider: tables.filter((t) => t.table > t.card) };
  });
}

async function open(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 15_000 });
}

test.use({ viewport: PHONE });

/**
 * Signed in as the administrator: the form once (with room for a slow first page on a busy machine),
 * then the same session for the file's other tests, each of which goes straight to its page.
 */
const signIn = (page: Page, username: string) => signInOncePerFile(page, username, 20_000);

test.beforeAll(async ({ request }) => {
  // A webhook that is deactivated, so its state ("Deactivated") is on the list.
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const self = await (await request.get(`/sharing/rest/portals/self?f=json&token=${token}`)).json();
  const base = `/sharing/rest/portals/${self.id}/webhooks`;
  const made = await (
    await request.post(`${base}/createWebhook`, {
      form: { f: 'json', token, name: 'Narrow deactivated hook', url: 'http://127.0.0.1:9/narrow-hook', events: '/items' },
    })
  ).json();
  expect(made.id, JSON.stringify(made)).toBeTruthy();
  await request.post(`${base}/${made.id}/deactivate`, { form: { f: 'json', token } });
});

test('no list page scrolls sideways at 390 px, and no table is wider than its card', async ({ page }) => {
  await signIn(page, 'admin');
  for (const { path, heading } of LIST_PAGES) {
    await open(page, path, heading);
    const o = await overflow(page);
    expect(o.page.scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(o.page.client);
    expect(o.wider, `${path}: tables wider than their card`).toEqual([]);
  }
});

test('filters wait behind a "Filters" button on a phone', async ({ page }) => {
  await signIn(page, 'admin');
  for (const { path, heading, filters } of LIST_PAGES.filter((p) => 'filters' in p)) {
    await open(page, path, heading);
    const button = page.getByRole('button', { name: /^Filters/ });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('group', { name: filters })).toBeHidden();
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('group', { name: filters })).toBeVisible();
  }
  // A filter in use is counted on the button, and the list follows it.
  await open(page, '/members', 'Members');
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Administrator' }).first().click();
  await expect(page.getByRole('button', { name: 'Filters (1 in use)' })).toBeVisible();
});

test("an item's Related tab fits a phone: relationships as cards, the origin/destination switch and badges whole", async ({ page, request }) => {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const add = async (title: string, type: string, extra: Record<string, string>) =>
    (await (await request.post('/sharing/rest/content/users/admin/addItem', { form: { f: 'json', token, title, type, ...extra } })).json()).id as string;
  const map = await add('Narrow hydrant inspections web map for field crews', 'Web Map', { text: '{}' });
  const app = await add('Narrow hydrant inspection dashboard application', 'Web Mapping Application', { url: 'http://127.0.0.1:9/apps/view?appid=1' });
  await request.post('/sharing/rest/content/users/admin/addRelationship', {
    form: { f: 'json', token, originItemId: map, destinationItemId: app, relationshipType: 'Map2AppConfig' },
  });

  await signIn(page, 'admin');
  await page.goto(`/content/items/${map}`);
  await page.getByRole('tab', { name: 'Related items' }).click();
  const list = page.getByRole('table', { name: 'Related items: this item is the origin' });
  await expect(list.getByText('Map2AppConfig')).toBeVisible();
  const o = await overflow(page);
  expect(o.page.scroll, 'the item page scrolls sideways').toBeLessThanOrEqual(o.page.client);
  expect(o.wider).toEqual([]);
  // Nothing cut: each badge and each choice of the switch shows its whole text.
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll('main .mantine-Badge-label, main .mantine-SegmentedControl-label')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth)
      .map((el) => el.textContent),
  );
  expect(clipped).toEqual([]);
  await snap(page, 'narrow-item-related');
});

test('a webhook row leads with its name and state, read whole', async ({ page }) => {
  await signIn(page, 'admin');
  await open(page, '/webhooks', 'Webhooks');
  const table = page.getByRole('table', { name: /webhooks/i }).first();
  const row = table.getByRole('row', { name: /Narrow deactivated hook/ }).first();
  // Stacked, the name comes first, then the state (before events and deliveries), as laid out.
  const top = async (text: string | RegExp) => (await row.getByText(text).first().boundingBox())!.y;
  const [name, state, events] = [await top('Narrow deactivated hook'), await top(/^Deactivated$/), await top(/^Events$/)];
  expect(name).toBeLessThan(state);
  expect(state).toBeLessThan(events);
  // On one line: a word (or less) per line was the bug.
  const badge = (await row
    .getByText(/^Deactivated$/)
    .first()
    .boundingBox())!;
  expect(badge.height).toBeLessThan(30);
  expect(badge.width).toBeGreaterThan(60);
});

// A long dialog's footer sits outside its scrolling part (issue 39): scrolled to the end, the last
// field is whole above the footer, and the footer and title stay inside the window.
for (const size of [PHONE, { width: 1440, height: 900 }]) {
  test(`a long dialog scrolls under its title and above its footer, never behind them, at ${size.width}×${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await signIn(page, 'admin');
    await open(page, '/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Create webhook' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create webhook' });
    await expect(dialog).toBeVisible();
    const scroller = dialog.locator('[data-dialog-scroll]');
    const footer = dialog.locator('[data-dialog-footer]');
    await expect(scroller.locator('[data-dialog-footer]')).toHaveCount(0);
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = dialog.getByRole('textbox', { name: 'Within days' });
    const [field, bar, title] = [
      (await last.boundingBox())!,
      (await footer.boundingBox())!,
      (await dialog.getByRole('heading', { name: 'Create webhook' }).boundingBox())!,
    ];
    expect(field.y + field.height).toBeLessThanOrEqual(bar.y);
    expect(bar.y + bar.height).toBeLessThanOrEqual(size.height);
    expect(title.y).toBeGreaterThanOrEqual(0);
    // The dialog's own box does not scroll: only its middle does.
    const content = await dialog.evaluate((el) => {
      const box = el.closest('.mantine-Modal-content') ?? el;
      return { scroll: box.scrollHeight, client: box.clientHeight };
    });
    expect(content.scroll).toBeLessThanOrEqual(content.client + 1);
    await snap(page, `dialog-footer-${size.width}`);
    // Keyboard as before: Tab from the footer's last button stays in the dialog (focus trap), and
    // Esc on a changed form asks before discarding it (useDirtyGuard).
    await footer.getByRole('button', { name: 'Create webhook' }).focus();
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Typed, then discarded');
    // The form reports itself changed from an effect (useReportDirty): an Esc within the same few
    // milliseconds as the typing still closes unasked — a person's Esc comes later than that.
    await page.waitForTimeout(250);
    await page.keyboard.press('Escape');
    const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect(dialog).toBeHidden();
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshots of every list page at 390×844, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, 'admin');
    for (const { path, heading } of LIST_PAGES) {
      await open(page, path, heading);
      await snap(page, `narrow-${path.slice(1)}-${scheme}`);
    }
  });
}
