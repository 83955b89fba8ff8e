import { expect, test } from '@playwright/test';
import { signIn, snap } from './support.ts';

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
  await expect(dialog.getByTestId('impact-preview')).toContainText('These workspaces stop exchanging content with Partner Organization:');
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
});
