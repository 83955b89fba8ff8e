/**
 * The "Uploads and downloads" tray never covers content (issue 39, 4): with an upload in progress
 * it is a small chip that sits clear of the page's buttons — the transfer wizard's Next takes the
 * pointer at 1440 and 390 px — it stays under dialogs, and a finished upload leaves by itself.
 * The upload is held in progress by holding its parts (page.route) until the test lets them go.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page, type Route } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { apiAs } from './keyboard.ts';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tray-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the pointer reaches `target` all over (its centre and edges), after scrolling it to the window's bottom edge. */
async function takesThePointer(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    el.scrollIntoView({ block: 'end' });
    const r = el.getBoundingClientRect();
    // The centre and the middle of each edge, inside the rounded corners (hit testing follows border-radius).
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const points = [
      [x, y],
      [r.left + 8, y],
      [r.right - 8, y],
      [x, r.top + 3],
      [x, r.bottom - 3],
    ];
    return points.every(([x, y]) => el.contains(document.elementFromPoint(x, y)));
  });
}

/** Goes to `to` inside the app (no reload: the upload lives in this page). */
async function navigate(page: Page, to: string) {
  await page.evaluate((href) => {
    window.history.pushState(window.history.state, '', href);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, to);
}

test('an upload in progress shows as a chip that covers no button and no dialog, and goes by itself once added', async ({ page, request }) => {
  test.setTimeout(120_000);
  const file = path.join(dir, 'big.csv');
  writeFileSync(file, Buffer.concat([Buffer.from('id,name\n'), Buffer.alloc(33 * 1024 * 1024, 'a')]));
  // Enough items that the wizard's list fills its height and Next sits low on the page, where a corner tray would be.
  const user1 = await apiAs(request, 'user1');
  for (let i = 0; i < 16; i++) await user1('content/users/user1/addItem', { title: `Tray list ${i}`, type: 'Web Map', text: '{}' });
  const held: Route[] = [];
  let holding = true;
  await page.route('**/addPart', (route) => (holding ? held.push(route) : route.fallback()));

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Content', exact: true }).click();
  await page.getByRole('button', { name: 'Add item' }).click();
  const add = page.getByRole('dialog', { name: 'Add item' });
  await add.locator('input[type=file]').first().setInputFiles(file);
  await add.getByRole('textbox', { name: 'Title' }).fill(`Tray ${Date.now().toString(36)}`);
  await add.getByRole('button', { name: 'Add item' }).click();
  await expect(add).toBeHidden({ timeout: 30_000 });
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);

  // The toast that says where to follow the upload goes by itself (it is not what this checks).
  await expect(page.getByText('Upload started')).toBeHidden({ timeout: 15_000 });
  await navigate(page, '/members/transfer?from=user1');
  const next = page.getByRole('button', { name: 'Next: new owner' });
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expect(next).toBeVisible();
    // Polled: at a new width the layout settles over a few frames (media queries re-render the page).
    await expect.poll(() => takesThePointer(next), { message: `Next takes the pointer at ${size.width} px`, timeout: 5_000 }).toBe(true);
    // The window as seen (the header is fixed: a full-page capture would draw it mid-page).
    await page.screenshot({ path: `e2e/artifacts/tray-chip-transfer-${size.width}.png` });
  }
  await next.click();
  await expect(page.getByRole('heading', { name: 'New owner and folder' })).toBeVisible();
  // The tray is a chip saying what is going on.
  const chip = page.getByRole('button', { name: /^Uploads and downloads/ });
  await expect(chip).toBeVisible();
  await expect(chip).toHaveAccessibleName(/^Uploads and downloads: 1 in progress/);

  // Opened, the tray lists the upload; Esc closes it back to the chip, focus on the chip.
  await page.setViewportSize({ width: 1440, height: 900 });
  await chip.click();
  const tray = page.getByRole('dialog', { name: 'Uploads and downloads' });
  await expect(tray.getByTestId('upload-row')).toBeVisible();
  await snap(page, 'tray-open');
  await expectAxeClean(page, '[aria-labelledby="job-tray-title"]');
  await page.keyboard.press('Escape');
  await expect(tray).toBeHidden();
  await expect(chip).toBeFocused();

  // A dialog covers the chip, not the other way round.
  await navigate(page, '/content');
  await page.getByRole('button', { name: 'Add item' }).click();
  await expect(add).toBeVisible();
  await expect.poll(() => takesThePointer(chip), { message: 'the dialog overlay is above the chip', timeout: 5_000 }).toBe(false);
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();

  // Let the parts through: the upload is added, and the chip leaves by itself.
  holding = false;
  for (const r of held.splice(0)) await r.fallback();
  await expect(chip).toBeHidden({ timeout: 30_000 });
});
