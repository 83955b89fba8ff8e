import { expect } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

test('the host administrator reads the demo collaboration and removes the partner after the impact preview', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Collaborations' }).click();
  await expect(page.getByRole('heading', { name: 'Collaborations', level: 1 })).toBeVisible();
  const participants = page.getByRole('table', { name: 'Participants of Demo and Partner field data' });
  const partner = participants.getByRole('row', { name: /Partner Organization/ });
  await expect(partner).toContainText('Guest');
  await expect(partner).toContainText('active');
  await expect(page.getByLabel('Participants of workspace Field operations')).toContainText('Partner Organization: sends and receives');
  await snap(page, 'collaborations');

  await page.getByRole('button', { name: 'Remove Partner Organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Partner Organization?' });
  await expect(dialog.getByTestId('impact-preview')).toContainText(
    /(These workspaces stop|This workspace stops) exchanging content with Partner Organization:/,
  );
  await expect(dialog.getByTestId('impact-preview')).toContainText('Field operations');
  const confirm = dialog.getByRole('button', { name: 'Remove participant' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Type Partner Organization to confirm' }).fill('Partner Org');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Type Partner Organization to confirm' }).fill('Partner Organization');
  await snap(page, 'collaborations-remove-preview');
  await confirm.click();
  await expect(dialog).toHaveCount(0);

  await expect(partner).toContainText('removed');
  await expect(page.getByLabel('Participants of workspace Field operations')).toContainText('Partner Organization: stopped');
  await expect(page.getByText(/Partner Organization was removed \(by admin\)/)).toBeVisible();
  await snap(page, 'collaborations-removed');

  // The removed partner is invited back from its row, to the workspace it had.
  await partner.getByRole('button', { name: 'Invite again: Partner Organization' }).click();
  const again = page.getByRole('dialog', { name: 'Invite Partner Organization again' });
  await expect(again.getByRole('combobox', { name: 'Guest access to Field operations' })).toHaveValue('Send and receive');
  await again.getByRole('button', { name: 'Invite again' }).click();
  const ready = page.getByRole('dialog', { name: 'Invitation ready' });
  await expect(ready.getByLabel('Invitation', { exact: true })).toContainText('Field operations: send and receive');
  await snap(page, 'collaborations-invitation-ready');
  await ready.getByRole('button', { name: 'Done' }).click();
  await expect(partner).toContainText('invited');
});

test('the host administrator creates a collaboration with its first workspace and invites the partner', async ({ page }) => {
  // A group of the host's to link to the workspace.
  const tag = Date.now().toString(36);
  const { token } = await (await page.request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const made = await (
    await page.request.post('/sharing/rest/community/createGroup', { form: { f: 'json', token, title: `Exchange ${tag}`, access: 'org' } })
  ).json();
  expect(made.success).toBe(true);
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Collaborations' }).click();
  await expect(page.getByRole('heading', { name: 'Collaborations', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New collaboration' }).click();
  const form = page.getByRole('dialog', { name: 'New collaboration' });
  // Nothing typed: each missing field is named beside it.
  await form.getByRole('button', { name: 'Create collaboration' }).click();
  await expect(form.getByText('Enter a name for the collaboration')).toBeVisible();
  await expect(form.getByText('Choose the group of yours that exchanges through the workspace')).toBeVisible();
  const name = `Watershed ${tag}`;
  await form.getByRole('textbox', { name: /^Name/ }).fill(name);
  await form.getByRole('textbox', { name: /^Workspace name/ }).fill('Gauges');
  await form.getByRole('combobox', { name: /^Your group in the workspace/ }).click();
  await page.getByRole('option', { name: `Exchange ${tag}` }).click();
  await form.getByRole('combobox', { name: /^Your organization/ }).click();
  await page.getByRole('option', { name: 'Send only' }).click();
  await snap(page, 'collaborations-new');
  await form.getByRole('button', { name: 'Create collaboration' }).click();
  await expect(form).toHaveCount(0);

  const participants = page.getByRole('table', { name: `Participants of ${name}` });
  await expect(participants).toBeVisible();
  const panel = page.getByRole('region').filter({ has: participants });
  await panel.getByRole('button', { name: 'Invite participant' }).click();
  const invite = page.getByRole('dialog', { name: `Invite a participant to ${name}` });
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  await expect(invite.getByText('Choose the organization to invite')).toBeVisible();
  // The partner is chosen by name, never by its portal ID.
  await invite.getByRole('combobox', { name: /^Guest organization/ }).fill('Partner');
  await page.getByRole('option', { name: 'Partner Organization' }).click();
  await snap(page, 'collaborations-invite');
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  const ready = page.getByRole('dialog', { name: 'Invitation ready' });
  await expect(ready.getByLabel('Invitation', { exact: true })).toContainText('Gauges: send and receive');
  await ready.getByRole('button', { name: 'Done' }).click();
  await expect(participants.getByRole('row', { name: /Partner Organization/ })).toContainText('invited');
});
