/**
 * Keyboard only: a large file (over the 32 MiB multipart threshold) chosen from the "Add item"
 * dialog's drop zone with Enter — the browser's file chooser opened by the keyboard, answered by
 * Playwright as a person would pick the file — then its upload in parts followed in the job tray:
 * the progress spoken at 25, 50 and 75 %, then its completion; the tray opened from its chip, the
 * parts shown and the new item opened from it by keyboard; the added entry then goes by itself.
 */
import { statSync, writeFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { snap } from './support.ts';
import { announced, apiAs, chooseFileByKeyboard, expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(240_000);

test('an administrator uploads a large file in parts and follows it by keyboard and live region', async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const title = `kb-upload-${tag}`;
  const file = testInfo.outputPath(`${title}.csv`);
  const row = 'id,name,value\n';
  writeFileSync(file, row.repeat(Math.ceil((33 * 1024 * 1024) / row.length))); // 33 MiB: sent in parts

  await keyboardSignIn(page, 'admin');
  await tabTo(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Content', exact: true }));
  await page.keyboard.press('Enter');
  const addItem = page.getByRole('button', { name: 'Add item' });
  await tabTo(page, addItem);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add item' });
  await expect(dialog).toBeVisible();

  // The drop zone is a tab stop; Enter opens the system's file chooser.
  const dropzone = dialog.getByRole('button', { name: 'Drop a file here or choose one' }).or(dialog.getByLabel('Drop a file here or choose one').first());
  await (await chooseFileByKeyboard(page, dropzone.first())).setFiles(file);
  await expect(dialog.getByText(`${title}.csv`)).toBeVisible();
  await expect(dialog.getByText(/sent in parts, with progress in the tray/)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveValue(title);

  // Everything the polite region says from now on, in order (it keeps only its last message).
  await page.evaluate(() => {
    const region = document.querySelector('[data-testid="announcer-polite"]')!;
    const said: string[] = ((window as unknown as { said: string[] }).said = []);
    new MutationObserver(() => region.textContent && said.push(region.textContent)).observe(region, { childList: true, subtree: true, characterData: true });
  });

  await tabTo(page, dialog.getByRole('button', { name: 'Add item' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // Focus goes back to the button that opened the dialog; the upload goes on in the tray.
  await expect(addItem).toBeFocused();
  const chip = page.getByRole('button', { name: /^Uploads and downloads/ });
  await expect(chip).toHaveAccessibleName(/1 in progress/);

  // The parts, shown by keyboard from the tray: the chip (in the header) opens it and focus moves into it.
  await tabTo(page, chip, { max: 200, back: true });
  await page.keyboard.press('Enter');
  const tray = page.getByRole('dialog', { name: 'Uploads and downloads' });
  await expect(tray).toContainText(title);
  const showParts = tray.getByRole('button', { name: 'Show parts' });
  await tabTo(page, showParts, { max: 20 });
  await page.keyboard.press('Enter');
  await expect(tray.getByRole('button', { name: 'Hide parts' })).toHaveAttribute('aria-expanded', 'true');

  await expect(announced(page)).toHaveText(`Upload of “${title}” finished: the item was added.`, { timeout: 180_000 });
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  const progress = said.filter((s) => s.startsWith(`Upload of “${title}”:`));
  // Milestones only, rising (a fast part may carry the bar past one, which is then not said).
  const milestones = progress.map((s) => Number(/: (\d+)% sent\.$/.exec(s)?.[1]));
  expect(milestones.length, said.join('\n')).toBeGreaterThan(0);
  for (const [i, m] of milestones.entries()) {
    expect([25, 50, 75], said.join('\n')).toContain(m);
    if (i) expect(m).toBeGreaterThan(milestones[i - 1]);
  }

  // The tray's title is now a link to the new item (an added entry stays while focus is in it).
  // Back from "Hide parts", where focus still is, so that it never leaves the entry: forward, Tab
  // went round the page behind, and on a slow machine the entry had gone by itself meanwhile.
  const link = tray.getByRole('link', { name: title });
  await expect(tray.getByRole('button', { name: 'Hide parts' })).toBeFocused();
  await tabTo(page, link, { max: 4, back: true });
  await expectVisibleFocus(page);
  // The screenshot once focus is on the link: a full-page screenshot resizes the window for a moment,
  // and taken before, focus had once left "Hide parts" when the steps above began.
  await snap(page, 'keyboard-upload-done');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/content\/items\//);
  await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();

  // The page changed: the tray closed, and the added entry goes by itself a few seconds later, the chip with it.
  await expect(tray).toBeHidden();
  await expect(chip).toBeHidden({ timeout: 20_000 });

  const admin = await apiAs(request, 'admin');
  const id = page.url().split('/').pop()!;
  expect(await admin(`content/items/${id}`, {})).toMatchObject({ title, type: 'CSV', size: statSync(file).size });
});
