/**
 * An invitation that expires (issue 39): the host's participant row and the invitation say when it
 * expires, relative and absolute; Refresh invitation, by keyboard, gives it 72 hours from now; the
 * guest sees when next to Accept. Checked by axe; screenshots at 1440 and 390 px.
 */
import { expect, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { apiAs } from './keyboard.ts';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

const collaborationsPage = async (page: Page) => {
  await page.goto('/collaborations');
  await expect(page.getByRole('heading', { name: 'Collaborations', level: 1 })).toBeVisible();
};

test('the host sees when an invitation expires and refreshes it by keyboard; the guest sees the new expiry', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const name = `Expiring ${Date.now().toString(36)}`;
  const admin = await apiAs(page.request, 'admin');
  const created = await admin('portals/self/collaborations/createCollaboration', { name, description: 'Gauges shared with the partner.' });
  const { workspaceId } = await admin(`portals/self/collaborations/${created.id}/addWorkspace`, { name: 'Gauges', access: 'sendAndReceive' });
  const partnerId: string = (await admin('portals/self/collaborations/participantCandidates', { q: 'Partner Organization' })).portals[0].id;
  await admin(`portals/self/collaborations/${created.id}/inviteParticipant`, {
    participantPortalId: partnerId,
    workspaces: JSON.stringify({ [workspaceId]: 'send' }),
    expiration: '2',
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await collaborationsPage(page);
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  const participants = page.getByRole('table', { name: `Participants of ${name}` });
  const partnerRow = participants.getByRole('row', { name: /Partner Organization/ });
  await expect(partnerRow).toContainText(/Expires in (1|2) hours? \(/);
  await snap(page, 'collaboration-invitation-expiry-row-1440');

  const show = partnerRow.getByRole('button', { name: 'Show invitation of Partner Organization' });
  await show.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Invitation of Partner Organization' });
  const expiry = dialog.getByTestId('invitation-expiry');
  await expect(expiry).toContainText(/Expires in (1|2) hours? \(/);
  await expect(dialog.getByLabel('Invitation', { exact: true })).toContainText('Answer by:');
  await expectAxeClean(page, '[role="dialog"]');
  await snap(page, 'collaboration-invitation-expiry-dialog-1440');
  await dialog.getByRole('button', { name: 'Refresh invitation of Partner Organization' }).focus();
  await page.keyboard.press('Enter');
  await expect(expiry).toContainText(/Expires in 3 days \(/);
  await expect(page.getByText(/The invitation of Partner Organization now expires/)).toBeVisible();
  await expectAxeClean(page, '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(partnerRow).toContainText(/Expires in 3 days \(/);
  await expect(page.getByText('The invitation of Partner Organization was refreshed')).toBeVisible();

  // The partner's administrator, on a phone: the new expiry next to Accept.
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const guest = await context.newPage();
  await signIn(guest, 'partner_admin');
  await collaborationsPage(guest);
  const invitation = guest.getByRole('group', { name: `Invitation to ${name}` });
  await expect(invitation).toContainText(/Expires in 3 days \(/);
  await expect(invitation.getByRole('button', { name: `Accept the invitation to ${name}` })).toBeVisible();
  await expectAxeClean(guest);
  await snap(guest, 'collaboration-invitation-expiry-guest-390');
  await context.close();
});

for (const size of [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the host invites for 24 hours and invalidates the invitation by keyboard (${size.width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    const name = `Short ${size.name} ${Date.now().toString(36)}`;
    const admin = await apiAs(page.request, 'admin');
    const created = await admin('portals/self/collaborations/createCollaboration', { name, description: 'Wells shared for a day.' });
    await admin(`portals/self/collaborations/${created.id}/addWorkspace`, { name: 'Wells', access: 'sendAndReceive' });

    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, 'admin');
    await collaborationsPage(page);
    await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await page.getByRole('button', { name: 'Invite participant' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: `Invite a participant to ${name}` });
    const guestField = form.getByRole('combobox', { name: /^Guest organization/ });
    await guestField.focus();
    await guestField.pressSequentially('Partn', { delay: 20 });
    await expect(page.getByRole('option', { name: 'Partner Organization' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const hours = form.getByRole('textbox', { name: /Expires after \(hours\)/ });
    await hours.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('9000');
    await form.getByRole('button', { name: 'Create invitation' }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByText('Enter from 1 to 8,760 hours (a year)')).toBeVisible();
    await expectAxeClean(page, '[role="dialog"]');
    await snap(page, `collaboration-invite-expiration-error-${size.width}`);
    await hours.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('24');
    await form.getByRole('button', { name: 'Create invitation' }).focus();
    await page.keyboard.press('Enter');
    const ready = page.getByRole('dialog', { name: 'Invitation ready' });
    await ready.getByRole('button', { name: 'Done' }).focus();
    await page.keyboard.press('Enter');

    const participants = page.getByRole('table', { name: `Participants of ${name}` });
    const partnerRow = participants.getByRole('row', { name: /Partner Organization/ });
    await expect(partnerRow).toContainText(/Expires in (23|24) hours? \(/);
    await partnerRow.getByRole('button', { name: 'Invalidate invitation of Partner Organization' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Invalidate the invitation of Partner Organization?' });
    await expect(confirm).toContainText('can no longer accept this invitation');
    await expectAxeClean(page, '[role="dialog"]');
    await snap(page, `collaboration-invalidate-confirm-${size.width}`);
    await confirm.getByRole('button', { name: 'Invalidate invitation' }).focus();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    await expect(partnerRow.getByRole('button', { name: 'Invite again: Partner Organization' })).toBeVisible();
    await expect(partnerRow.getByRole('button', { name: /^Invalidate invitation/ })).toHaveCount(0);
    await expectAxeClean(page);
    await snap(page, `collaboration-invalidated-${size.width}`);
    const invitations = await admin(`portals/self/collaborations/${created.id}/invitations`, {});
    expect(invitations.collaborationInvitations[0].state).toBe('invalidated');
  });
}
