import { expect } from '@playwright/test';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

test('an administrator schedules a members report every weekday at 07:30 with the builder, sees its words and next runs, creates it, runs it and sees the run in the history', async ({
  page,
}) => {
  const title = `Weekday members ${Date.now().toString(36)}`;
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Scheduled tasks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scheduled tasks' })).toBeVisible();

  await page.getByRole('button', { name: 'New task' }).click();
  const form = page.getByRole('dialog', { name: 'New scheduled task' });
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  // Report of members (the default type for administrators).
  await expect(form.getByRole('combobox', { name: 'Type' })).toHaveValue('Administrative report');

  // The builder: a different preset first, then weekdays at 07:30.
  await form.getByRole('combobox', { name: 'Repeat' }).click();
  await page.getByRole('option', { name: 'Every day' }).click();
  await form.getByLabel('Time (UTC)').fill('06:00');
  await expect(form.getByTestId('schedule-words')).toHaveText('At 06:00 AM (UTC)');
  await form.getByRole('combobox', { name: 'Repeat' }).click();
  await page.getByRole('option', { name: 'Every weekday (Monday to Friday)' }).click();
  await form.getByLabel('Time (UTC)').fill('07:30');
  await expect(form.getByTestId('schedule-words')).toHaveText('At 07:30 AM, Monday through Friday (UTC)');
  const runs = form.getByRole('table', { name: 'Next runs' }).getByRole('row');
  await expect(runs).toHaveCount(6); // header + 5
  for (let i = 1; i <= 5; i++) await expect(runs.nth(i)).toContainText(/(Mon|Tue|Wed|Thu|Fri) 07:30 UTC|\d{4}-\d{2}-\d{2} 07:30 UTC/);
  // The advanced view shows the same five fields.
  await form.getByText('Advanced (CRON fields)').click();
  await expect(form.getByRole('textbox', { name: /^Day of week/ })).toHaveValue('2-6');
  await expect(form.getByRole('textbox', { name: /^Day of month/ })).toHaveValue('?');
  await snap(page, 'tasks-builder');
  await form.getByRole('button', { name: 'Create task' }).click();
  await expect(form).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('At 07:30 AM, Monday through Friday (UTC)');
  await expect(row).toContainText('07:30 UTC');
  await expect(row).toContainText('active');
  await expect(row).toContainText('No run yet');

  // Run it now and see the run in its history.
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Run now' }).click();
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Run history' }).click();
  const drawer = page.getByRole('dialog', { name: `Run history: ${title}` });
  await expect(drawer.getByRole('table', { name: 'Runs' }).getByRole('row').nth(1)).toContainText('succeeded', { timeout: 15_000 });
  await expect(drawer).toContainText(/Created CSV item [0-9a-f]{32} with \d+ members\./);
  await snap(page, 'tasks-history');
  await page.keyboard.press('Escape');
  await expect(row).toContainText('succeeded');
  await snap(page, 'tasks-list');
});
