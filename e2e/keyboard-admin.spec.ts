/**
 * Keyboard only: an administrator builds a custom role from the privilege checklist (every
 * privilege of one area with its "select all", two of another) and creates a task that runs every
 * weekday at 07:30 UTC with the schedule builder.
 */
import { expect, type Page } from '@playwright/test';
import { snap } from './support.ts';
import { expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(180_000);

/** Opens a focused Mantine select with the keyboard and picks `option` with the arrow keys. */
async function pickOption(page: Page, option: string) {
  await page.keyboard.press('ArrowDown');
  const wanted = page.getByRole('option', { name: option, exact: true });
  await expect(wanted).toBeVisible();
  for (let i = 0; i < 12 && (await wanted.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
  await expect(wanted).toHaveAttribute('data-combobox-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(wanted).toBeHidden();
}

test('an administrator builds a role from the checklist and schedules a weekday task, all by keyboard', async ({ page }) => {
  const tag = Date.now().toString(36);
  const roleName = `Group coordinator ${tag}`;
  await keyboardSignIn(page, 'admin');

  // Roles, by the navigation.
  await tabTo(page, page.getByRole('link', { name: 'Roles' }));
  await page.keyboard.press('Enter');
  const newRole = page.getByRole('button', { name: 'New role' });
  await tabTo(page, newRole);
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('textbox', { name: 'Name' }));
  await page.keyboard.type(roleName);

  // Each area is a named group; "select all" in Groups ticks its every privilege.
  const groups = page.getByRole('group', { name: 'Groups' }).filter({ has: page.getByRole('checkbox', { name: 'Create groups', exact: true }) });
  await expect(groups).toHaveCount(1);
  const selectAllGroups = groups.getByRole('checkbox', { name: 'Select all in Groups (general)' });
  await tabTo(page, selectAllGroups, { max: 200 });
  await page.keyboard.press('Space');
  await expect(selectAllGroups).toBeChecked();
  for (const label of ['Create groups', 'Join groups in the organization', 'View groups of the organization']) {
    await expect(groups.getByRole('checkbox', { name: label, exact: true })).toBeChecked();
  }
  await snap(page, 'keyboard-role-select-all');

  // Two of Content: the area's "select all" shows it is partly ticked.
  const content = page
    .getByRole('group', { name: 'Content' })
    .filter({ has: page.getByRole('checkbox', { name: 'Create, update and delete own content', exact: true }) });
  for (const label of ['Create, update and delete own content', 'Publish hosted feature layers']) {
    const box = content.getByRole('checkbox', { name: label, exact: true });
    await tabTo(page, box, { max: 200 });
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  await expect(content.getByRole('checkbox', { name: 'Select all in Content (general)' })).toBeChecked({ indeterminate: true });

  // Shift+Tab goes back as well: to the Groups "select all", which unticks and ticks again with Space.
  await tabTo(page, selectAllGroups, { max: 200, back: true });
  await page.keyboard.press('Space');
  await expect(selectAllGroups).not.toBeChecked();
  await page.keyboard.press('Space');
  await expect(selectAllGroups).toBeChecked();

  await tabTo(page, page.getByRole('button', { name: 'Review and save' }), { max: 300 });
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'Create this role?' });
  const create = review.getByRole('button', { name: 'Create role' });
  await expect(create).toBeFocused();
  await expectVisibleFocus(page);
  await expect(review.getByRole('region', { name: 'Added' })).toContainText('Publish hosted feature layers');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: roleName })).toBeVisible({ timeout: 15_000 });

  // Scheduled tasks, by the navigation.
  await tabTo(page, page.getByRole('link', { name: 'Scheduled tasks' }), { max: 400, back: true });
  await page.keyboard.press('Enter');
  const newTask = page.getByRole('button', { name: 'New task' });
  await tabTo(page, newTask);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'New scheduled task' });
  await expect(form).toBeVisible();
  // Focus is inside the dialog.
  await expect.poll(() => form.evaluate((d) => d.contains(document.activeElement))).toBe(true);

  const title = `Weekday members report ${tag}`;
  await tabTo(page, form.getByRole('textbox', { name: 'Title', exact: true }));
  await page.keyboard.type(title);

  // The builder: "Every day" first, then back to weekdays, each choice spoken in words.
  const repeat = form.getByRole('textbox', { name: 'Repeat' }).or(form.getByRole('combobox', { name: 'Repeat' }));
  await tabTo(page, repeat);
  await pickOption(page, 'Every day');
  await expect(repeat).toBeFocused();
  const words = form.getByTestId('schedule-words');
  await expect(words).toHaveAttribute('aria-live', 'polite');
  await expect(words).not.toContainText('Monday');
  await pickOption(page, 'Every weekday (Monday to Friday)');
  await expect(repeat).toHaveValue('Every weekday (Monday to Friday)');

  // 07:30 typed into the time field.
  const time = form.getByLabel('Time (UTC)');
  await tabTo(page, time);
  await page.keyboard.type('0730');
  await expect(time).toHaveValue('07:30');
  await expect(words).toContainText('07:30');
  await expect(words).toContainText(/Monday.*Friday/);
  await expect(form.getByRole('table', { name: 'Next runs' }).getByRole('row')).toHaveCount(6);

  // The CRON fields behind it, through the mode switch (radio buttons: arrow keys).
  // Back through Repeat, resting on it first: a Mantine Select passed through within a few
  // milliseconds by Shift+Tab can take focus back from the next control (seen as a flaky run).
  await tabTo(page, repeat, { back: true });
  await page.waitForTimeout(300);
  const simple = form.getByRole('radio', { name: 'Simple' });
  await tabTo(page, simple, { back: true });
  await expect(simple).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: 'Advanced (CRON fields)' })).toBeChecked();
  await expect(form.getByRole('textbox', { name: /^Day of week/ })).toHaveValue('2-6');
  await expect(form.getByRole('textbox', { name: /^Hour/ })).toHaveValue('7');
  await expect(form.getByRole('textbox', { name: /^Minute/ })).toHaveValue('30');
  await snap(page, 'keyboard-task-cron');

  await tabTo(page, form.getByRole('button', { name: 'Create task' }), { max: 120 });
  await page.keyboard.press('Enter');
  await expect(form).toBeHidden();
  // Back on the button that opened the dialog.
  await expect(newTask).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: title })).toContainText('is scheduled');
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toBeVisible();

  // A drawer opened from a row's menu: focus goes into it and, on Escape, back to the menu button.
  const actions = row.getByRole('button', { name: `Actions for ${title}` });
  await tabTo(page, actions, { max: 120 });
  await page.keyboard.press('Enter');
  const history = page.getByRole('menuitem', { name: 'Run history' });
  await expect(history).toBeVisible();
  for (let i = 0; i < 10 && !(await history.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(history).toBeFocused();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: `Run history: ${title}` });
  await expect(drawer).toBeVisible();
  await expect.poll(() => drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(actions).toBeFocused();
});
